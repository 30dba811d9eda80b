-- A queue per pool (issue 31, part 5). A booking asked with whenUnavailable QUEUE that does not fit is stored as a
-- QUEUED reservation: no nodes, no allocations, no usage, no price charged, and the start window it accepts.
-- When capacity frees, the queue books it (the same row becomes CONFIRMED, with its nodes and its quote) through
-- the normal booking transaction; if its latest start passes first it is EXPIRED.
ALTER TABLE reservation
    ADD COLUMN queue_earliest timestamptz,
    ADD COLUMN queue_latest timestamptz,
    ADD CONSTRAINT reservation_queue_window_check CHECK (queue_latest IS NULL OR queue_latest >= queue_earliest),
    DROP CONSTRAINT reservation_lifecycle_status_check,
    ADD CONSTRAINT reservation_lifecycle_status_check
        CHECK (lifecycle_status IN ('FAILED', 'PREEMPTED', 'PENDING_APPROVAL', 'DENIED', 'EXPIRED', 'QUEUED'));

-- each pool's queue in the order it was queued, for the drain and the positions
CREATE INDEX reservation_queued ON reservation (pool_id, created_at) WHERE lifecycle_status = 'QUEUED';

ALTER TABLE tenant_webhook DROP CONSTRAINT tenant_webhook_events_check,
    ADD CONSTRAINT tenant_webhook_events_check CHECK (cardinality(events) BETWEEN 1 AND 13
        AND events <@ ARRAY['CONFIRMED', 'PROVISIONING', 'READY', 'DEGRADED', 'PREEMPTED', 'COMPLETED', 'FAILED',
                            'PENDING_APPROVAL', 'APPROVED', 'DENIED', 'EXPIRED', 'QUEUED', 'DEQUEUED']);
