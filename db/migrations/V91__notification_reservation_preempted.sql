-- A tenant is told when its reservation is preempted (issue 12).
ALTER TABLE notification DROP CONSTRAINT notification_kind_check;
ALTER TABLE notification ADD CONSTRAINT notification_kind_check
    CHECK (kind IN ('BUDGET_THRESHOLD', 'IDLE_RESERVATION', 'IDLE_RECLAIM_NOTICE', 'IDLE_RELEASED', 'RESERVATION_PREEMPTED'));
