-- inventory: the memory of each node of a pool, in GiB, which bounds the shared memory (/dev/shm) a booking may
-- ask for; NULL means the configured default (allot.inventory.default-node-memory-gi). All nodes of a pool are one
-- machine type, so it is a pool's fact, set with PATCH /api/v1/pools/{pool}.
ALTER TABLE pool ADD COLUMN node_memory_gi int CHECK (node_memory_gi BETWEEN 1 AND 1048576);
