-- booking: a preemptible reservation reclaimed for a guaranteed booking ends PREEMPTED; status_reason says why
-- (never naming the other tenant) and status_changed_at is when (billing charges nothing after it). The partial
-- index finds the live preemptible reservations of a pool overlapping a window, read only when a guaranteed
-- booking finds too few nodes free.
ALTER TABLE reservation DROP CONSTRAINT reservation_lifecycle_status_check,
    ADD CONSTRAINT reservation_lifecycle_status_check
        CHECK (lifecycle_status IN ('PROVISIONING', 'ACTIVE', 'ENDING', 'COMPLETED', 'FAILED', 'PREEMPTED'));
CREATE INDEX reservation_preemptible ON reservation (pool_id, starts_at)
    WHERE preemptible AND cancelled_at IS NULL;
