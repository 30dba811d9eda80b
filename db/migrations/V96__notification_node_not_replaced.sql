-- A tenant is told when a node of its reservation was taken out of service and none could replace it (issue 13).
ALTER TABLE notification DROP CONSTRAINT notification_kind_check;
ALTER TABLE notification ADD CONSTRAINT notification_kind_check
    CHECK (kind IN ('BUDGET_THRESHOLD', 'IDLE_RESERVATION', 'IDLE_RECLAIM_NOTICE', 'IDLE_RELEASED', 'RESERVATION_PREEMPTED',
                    'NODE_NOT_REPLACED'));
