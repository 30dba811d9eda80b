-- provisioning: one cluster per reservation, its lifecycle state, and the timeline of every step and its outcome.
-- Credentials are never stored: endpoints hold only what a tenant may see in a page (hosts, names).

CREATE TABLE cluster (
    reservation_id          uuid PRIMARY KEY REFERENCES reservation (id),
    tenant_slug             text NOT NULL,
    pool_name               text NOT NULL,
    orchestrator            text NOT NULL CHECK (orchestrator IN ('KUBERNETES', 'SLURM')),
    state                   text NOT NULL CHECK (state IN ('PENDING', 'CREATING', 'INSTALLING_DRIVERS',
                                'RUNNING_ACCEPTANCE_TESTS', 'READY', 'DEGRADED', 'DELETING', 'DELETED', 'FAILED')),
    state_reason            text,
    state_changed_at        timestamptz NOT NULL,
    provision_at            timestamptz NOT NULL,
    ends_at                 timestamptz NOT NULL,
    provisioning_started_at timestamptz,
    ready_at                timestamptz,
    torn_down_at            timestamptz,
    failure_reason          text,
    -- false once the lifecycle has nothing left to do (deleted, or a failure cleaned up or given up on)
    open                    boolean NOT NULL DEFAULT true,
    endpoints               jsonb NOT NULL DEFAULT '{}',
    nodes                   jsonb NOT NULL DEFAULT '[]',
    created_at              timestamptz NOT NULL,
    CHECK (open OR state IN ('DELETED', 'FAILED'))
);
-- The watchdog looks at due PENDING clusters and at the few the lifecycle is working on, never at the many
-- booked for later.
CREATE INDEX cluster_due ON cluster (provision_at) WHERE open AND state = 'PENDING';
CREATE INDEX cluster_working ON cluster (state) WHERE open AND state <> 'PENDING';

CREATE TABLE cluster_event (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    reservation_id uuid NOT NULL REFERENCES cluster (reservation_id),
    at             timestamptz NOT NULL,
    step           text NOT NULL CHECK (step IN ('schedule', 'provision', 'teardown', 'watchdog', 'health-check')),
    outcome        text NOT NULL CHECK (outcome IN ('SCHEDULED', 'STARTED', 'PROGRESSED', 'SUCCEEDED', 'RETRYING',
                       'FAILED', 'SKIPPED', 'POSTPONED', 'GAVE_UP', 'ACTED')),
    state          text NOT NULL,
    attempt        int,
    detail         text NOT NULL CHECK (length(detail) <= 4000)
);
CREATE INDEX cluster_event_timeline ON cluster_event (reservation_id, id);
