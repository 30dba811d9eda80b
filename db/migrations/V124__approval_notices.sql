-- Approvals are told to the tenant (issue 31): notifications APPROVAL_REQUESTED and APPROVAL_DECIDED, and the
-- lifecycle webhook events PENDING_APPROVAL, APPROVED, DENIED and EXPIRED.
ALTER TABLE notification DROP CONSTRAINT notification_kind_check,
    ADD CONSTRAINT notification_kind_check CHECK (kind IN ('BUDGET_THRESHOLD', 'IDLE_RESERVATION',
        'IDLE_RECLAIM_NOTICE', 'IDLE_RELEASED', 'RESERVATION_PREEMPTED', 'NODE_NOT_REPLACED', 'RESERVATION_FAILED',
        'APPROVAL_REQUESTED', 'APPROVAL_DECIDED'));

ALTER TABLE tenant_webhook DROP CONSTRAINT tenant_webhook_events_check,
    ADD CONSTRAINT tenant_webhook_events_check CHECK (cardinality(events) BETWEEN 1 AND 11
        AND events <@ ARRAY['CONFIRMED', 'PROVISIONING', 'READY', 'DEGRADED', 'PREEMPTED', 'COMPLETED', 'FAILED',
                            'PENDING_APPROVAL', 'APPROVED', 'DENIED', 'EXPIRED']);
