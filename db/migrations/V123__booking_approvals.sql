-- Booking approvals (issue 31, part 1). A quota policy may ask for approval of bookings above some GPU-hours or
-- beyond the guarantee; such a booking holds its nodes as PENDING_APPROVAL until a tenant admin other than its
-- requester (or a platform admin) approves it (it becomes CONFIRMED, and only then is provisioned and billed) or
-- denies it, or its hold runs out (DENIED, EXPIRED: its nodes and quota freed, nothing charged).
ALTER TABLE quota_policy
    ADD COLUMN approval_above_gpu_hours integer CHECK (approval_above_gpu_hours >= 0),
    ADD COLUMN approval_beyond_guarantee boolean NOT NULL DEFAULT false;
ALTER TABLE quota_request_policy
    ADD COLUMN approval_above_gpu_hours integer CHECK (approval_above_gpu_hours >= 0),
    ADD COLUMN approval_beyond_guarantee boolean NOT NULL DEFAULT false;

ALTER TABLE reservation
    ADD COLUMN requested_by text,
    ADD COLUMN approval_until timestamptz,
    ADD COLUMN decided_by text,
    ADD COLUMN decided_at timestamptz,
    ADD COLUMN decision_reason text CHECK (length(decision_reason) <= 1000),
    DROP CONSTRAINT reservation_lifecycle_status_check,
    ADD CONSTRAINT reservation_lifecycle_status_check
        CHECK (lifecycle_status IN ('FAILED', 'PREEMPTED', 'PENDING_APPROVAL', 'DENIED', 'EXPIRED'));

-- the pending ones whose hold runs out, for the expiry task
CREATE INDEX reservation_pending_approval ON reservation (approval_until) WHERE lifecycle_status = 'PENDING_APPROVAL';
