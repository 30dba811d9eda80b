-- booking: earliest-fit sweeps a pool's free gaps in order of their start, a stretch of days at a time. Asked
-- through the GiST index for the gaps overlapping the stretch, it read every gap alive in it (about 5,000 rows a
-- stretch at 1M reservations) to keep those starting there; this index reads only those, in order.
CREATE INDEX free_gap_starts ON free_gap (pool_id, lower(during));
