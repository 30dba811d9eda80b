-- booking: the volumes a reservation books (cluster.volumes), each a row that outlives the reservation when the
-- tenant asked to retain it, until the tenant deletes it. A volume holds storage from the reservation's start
-- until its teardown (not retained) or its deletion (retained); the storage quota and billing read these rows.
-- provisioning fills location (where the driver made it) and, for monitored limits, the measured usage.
CREATE TABLE volume (
    id             uuid PRIMARY KEY,
    reservation_id uuid NOT NULL REFERENCES reservation (id),
    tenant_id      uuid NOT NULL REFERENCES tenant (id),
    name           text NOT NULL CHECK (name ~ '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$'),
    size_gi        int  NOT NULL CHECK (size_gi > 0),
    retain         boolean NOT NULL,
    status         text NOT NULL DEFAULT 'BOOKED'
                   CHECK (status IN ('BOOKED', 'CREATED', 'RETAINED', 'DELETING', 'DELETED')),
    location       text CHECK (length(location) <= 1000),
    created_at     timestamptz,
    deleted_at     timestamptz,
    used_bytes     bigint CHECK (used_bytes >= 0),
    measured_at    timestamptz,
    over_limit_since timestamptz,
    UNIQUE (reservation_id, name),
    CHECK ((status IN ('DELETING', 'DELETED')) = (deleted_at IS NOT NULL))
);
CREATE INDEX volume_tenant_live ON volume (tenant_id) WHERE deleted_at IS NULL;
CREATE INDEX volume_measured ON volume (measured_at NULLS FIRST) WHERE status IN ('CREATED', 'RETAINED');

-- quota: the tenant's storage quota in GiB over all its volumes at once; NULL is unlimited (existing tenants).
ALTER TABLE quota ADD COLUMN storage_gi int CHECK (storage_gi >= 0);
