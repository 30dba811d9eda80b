-- A booking searches a pool's free nodes block by block (dev.allot.booking.Bookings#lockFreeNodes): the nodes of a
-- few InfiniBand blocks, each probed in the free_gap_disjoint index (node_id, during).
CREATE INDEX node_pool_block ON node (pool_id, ib_block, id);
