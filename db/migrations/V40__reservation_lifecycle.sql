-- booking: the lifecycle stage provisioning moves a reservation through (PROVISIONING, ACTIVE, ENDING, COMPLETED,
-- FAILED). NULL until provisioning begins: the reservation is then CONFIRMED (COMPLETED once its window has passed
-- untouched). CANCELLED stays cancelled_at. Nullable columns without default: adding them rewrites nothing.
ALTER TABLE reservation
    ADD COLUMN lifecycle_status  text CHECK (lifecycle_status IN ('PROVISIONING', 'ACTIVE', 'ENDING', 'COMPLETED', 'FAILED')),
    ADD COLUMN status_reason     text CHECK (length(status_reason) <= 2000),
    ADD COLUMN status_changed_at timestamptz,
    ADD CONSTRAINT reservation_lifecycle_complete
        CHECK ((lifecycle_status IS NULL) = (status_changed_at IS NULL));
