-- A reservation's lifecycle stage is read, not pushed (issue 26): PROVISIONING, ACTIVE, ENDING and COMPLETED follow
-- from its cluster (booking's ReservationStages); the reservation row keeps only booking's own facts, FAILED and
-- PREEMPTED (each changed what the reservation holds), with their reason and time.
UPDATE reservation SET lifecycle_status = NULL, status_reason = NULL, status_changed_at = NULL
WHERE lifecycle_status IN ('PROVISIONING', 'ACTIVE', 'ENDING', 'COMPLETED');

ALTER TABLE reservation DROP CONSTRAINT reservation_lifecycle_status_check,
    ADD CONSTRAINT reservation_lifecycle_status_check CHECK (lifecycle_status IN ('FAILED', 'PREEMPTED'));
