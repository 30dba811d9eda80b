-- Hot spares: a pool holds spare_nodes of its healthy nodes, free from now on, out of bookable capacity; a
-- replacement takes one of them first. Which nodes are the spares is kept by booking (it knows which nodes are
-- free from now on): node.spare, cleared when the node leaves service or is taken as a replacement.
ALTER TABLE pool ADD COLUMN spare_nodes int NOT NULL DEFAULT 0 CONSTRAINT pool_spare_nodes_not_negative CHECK (spare_nodes >= 0);
ALTER TABLE node ADD COLUMN spare boolean NOT NULL DEFAULT false;
CREATE INDEX node_spares ON node (pool_id, id) WHERE spare;
