-- booking: the capacity calendar is kept from the free gaps rather than per node and hour. A node's hour (or UTC
-- day) turns allocated when a booking cuts a window out of the gap that held the whole hour, and free again when
-- a release merges it back into a gap that holds the whole hour; so a booking writes one row per hour and day of
-- its window (in one stripe of its choosing) instead of one per node and hour. Sums over stripes are the counts;
-- a single stripe may go negative.

CREATE TABLE pool_day (
    pool_id         uuid     NOT NULL,
    day             timestamptz NOT NULL,
    stripe          smallint NOT NULL,
    allocated_nodes int      NOT NULL,
    PRIMARY KEY (pool_id, day, stripe)
);

INSERT INTO pool_day (pool_id, day, stripe, allocated_nodes)
SELECT pool_id, date_trunc('day', hour, 'UTC'), CAST(node_id % 8 AS smallint), count(DISTINCT node_id)
FROM node_hour WHERE refs > 0
GROUP BY 1, 2, 3;

DROP TABLE node_hour;
