-- billing: the per-tenant idleReclaim policy (absent row = OFF) and, per idle reservation, where its reclaim stands:
-- noticed_at when the tenant was told (NOTIFY and RELEASE), release_at when a RELEASE takes effect unless the GPUs
-- are used again, released_at when it was ended early (through booking's cancel path), or cleared_at when the
-- GPUs were used again before the release.
CREATE TABLE tenant_idle_reclaim (
    tenant_id      uuid PRIMARY KEY REFERENCES tenant (id),
    mode           text NOT NULL CHECK (mode IN ('OFF', 'NOTIFY', 'RELEASE')),
    after_hours    int CHECK (after_hours BETWEEN 1 AND 720),
    notice_minutes int CHECK (notice_minutes BETWEEN 0 AND 10080),
    updated_at     timestamptz NOT NULL,
    CHECK (mode = 'OFF' OR after_hours IS NOT NULL),
    CHECK (mode <> 'RELEASE' OR notice_minutes IS NOT NULL)
);
ALTER TABLE idle_flag
    ADD COLUMN noticed_at  timestamptz,
    ADD COLUMN release_at  timestamptz,
    ADD COLUMN released_at timestamptz,
    ADD COLUMN cleared_at  timestamptz;
CREATE INDEX idle_flag_open ON idle_flag (flagged_at) WHERE released_at IS NULL AND cleared_at IS NULL;
ALTER TABLE notification DROP CONSTRAINT notification_kind_check,
    ADD CONSTRAINT notification_kind_check
        CHECK (kind IN ('BUDGET_THRESHOLD', 'IDLE_RESERVATION', 'IDLE_RECLAIM_NOTICE', 'IDLE_RELEASED'));
