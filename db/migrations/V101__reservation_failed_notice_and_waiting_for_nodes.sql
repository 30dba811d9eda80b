-- A reservation whose cluster could not be built (its nodes still held past the start's grace, or a permanent
-- driver failure) tells its tenant, beside the lifecycle webhook's FAILED event.
ALTER TABLE notification DROP CONSTRAINT notification_kind_check;
ALTER TABLE notification ADD CONSTRAINT notification_kind_check
    CHECK (kind IN ('BUDGET_THRESHOLD', 'IDLE_RESERVATION', 'IDLE_RECLAIM_NOTICE', 'IDLE_RELEASED', 'RESERVATION_PREEMPTED',
                    'NODE_NOT_REPLACED', 'RESERVATION_FAILED'));

-- A provision step that finds its nodes still in another cluster (a preempted reservation's, during its notice)
-- waits for them: a WAITING entry on the timeline, never a failure.
ALTER TABLE cluster_event DROP CONSTRAINT cluster_event_outcome_check;
ALTER TABLE cluster_event ADD CONSTRAINT cluster_event_outcome_check
    CHECK (outcome IN ('SCHEDULED', 'STARTED', 'PROGRESSED', 'SUCCEEDED', 'RETRYING', 'FAILED', 'SKIPPED', 'POSTPONED',
                       'GAVE_UP', 'ACTED', 'WAITING'));
