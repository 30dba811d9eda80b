-- billing: what is billable, as billing learns it from booking's, inventory's (and later provisioning's)
-- events, and which hourly periods have been metered.

CREATE TABLE billable_reservation (
    reservation_id   uuid PRIMARY KEY,
    tenant_id        uuid NOT NULL REFERENCES tenant (id),
    tenant_slug      text NOT NULL,
    project          text NOT NULL,
    pool             text NOT NULL,
    gpu_type         text NOT NULL,
    gpus_per_node    int  NOT NULL CHECK (gpus_per_node > 0),
    gpus             int  NOT NULL CHECK (gpus > 0),
    nodes            text[] NOT NULL,
    starts_at        timestamptz NOT NULL,
    ends_at          timestamptz NOT NULL CHECK (ends_at > starts_at),
    booked_amount    numeric(18, 4) NOT NULL,
    currency         text NOT NULL,
    cancelled_at     timestamptz,
    -- the end of its billable life when earlier than ends_at: the cancellation's freed-from instant
    stopped_at       timestamptz,
    -- provisioning's hooks (see Lifecycle): billable from max(starts_at, ready_at); failed costs nothing
    ready_at         timestamptz,
    failed_at        timestamptz,
    failure_reason   text,
    -- every hour before this one is metered
    metered_until    timestamptz NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX billable_reservation_due ON billable_reservation (metered_until) WHERE failed_at IS NULL;
CREATE INDEX billable_reservation_tenant ON billable_reservation (tenant_id, starts_at);
CREATE INDEX billable_reservation_nodes ON billable_reservation USING gin (nodes);

-- The rate-class split fixed at booking (copied from quota), per stretch of constant split.
CREATE TABLE billable_segment (
    reservation_id uuid NOT NULL REFERENCES billable_reservation (reservation_id),
    during         tstzrange NOT NULL CHECK (NOT isempty(during) AND NOT lower_inf(during) AND NOT upper_inf(during)),
    reserved_gpus  int NOT NULL CHECK (reserved_gpus >= 0),
    borrowed_gpus  int NOT NULL CHECK (borrowed_gpus >= 0),
    on_demand_gpus int NOT NULL CHECK (on_demand_gpus >= 0),
    amount         numeric(18, 4) NOT NULL,
    PRIMARY KEY (reservation_id, during),
    CONSTRAINT billable_segment_disjoint EXCLUDE USING gist (reservation_id WITH =, during WITH &&)
);

-- The exactly-once key: one row per reservation and hour, inserted in the transaction that posts its usage.
CREATE TABLE metered_period (
    reservation_id uuid NOT NULL,
    hour           timestamptz NOT NULL CHECK (date_trunc('hour', hour) = hour),
    billed         tstzrange,
    transaction_id bigint REFERENCES ledger_transaction (id),
    metered_at     timestamptz NOT NULL,
    PRIMARY KEY (reservation_id, hour)
);

-- Times a node was out of service for a fault (QUARANTINED, IN_REPAIR): its GPUs are credited.
CREATE TABLE node_outage (
    id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    hostname text NOT NULL,
    pool     text NOT NULL,
    during   tstzrange NOT NULL CHECK (NOT isempty(during) AND NOT lower_inf(during)),
    reason   text,
    CONSTRAINT node_outage_disjoint EXCLUDE USING gist (hostname WITH =, during WITH &&)
);
CREATE INDEX node_outage_pool ON node_outage USING gist (pool, during);
