-- booking: reservations, node allocations (the exclusion constraint is the guarantee), each node's free gaps
-- (so that finding free nodes is one index lookup whatever the occupancy), and the capacity calendar kept
-- exact in the booking transaction.

CREATE TABLE reservation (
    id              uuid PRIMARY KEY,
    tenant_id       uuid NOT NULL REFERENCES tenant (id),
    tenant_slug     text NOT NULL,
    project_id      uuid NOT NULL REFERENCES project (id),
    project_slug    text NOT NULL,
    pool_id         uuid NOT NULL REFERENCES pool (id),
    pool_name       text NOT NULL,
    gpu_type        text NOT NULL,
    gpus            int  NOT NULL CHECK (gpus > 0),
    starts_at       timestamptz NOT NULL,
    ends_at         timestamptz NOT NULL CHECK (ends_at > starts_at),
    cancelled_at    timestamptz,
    preemptible     boolean NOT NULL,
    cluster         jsonb NOT NULL,
    quote           jsonb NOT NULL,
    nodes           text[] NOT NULL,
    version         bigint NOT NULL DEFAULT 0,
    idempotency_key text CHECK (length(idempotency_key) BETWEEN 1 AND 200),
    request_hash    text,
    created_at      timestamptz NOT NULL,
    UNIQUE (tenant_id, idempotency_key)
);
CREATE INDEX reservation_tenant_time ON reservation (tenant_id, starts_at, id);

CREATE TABLE allocation (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    reservation_id uuid   NOT NULL REFERENCES reservation (id),
    node_id        bigint NOT NULL REFERENCES node (id),
    pool_id        uuid   NOT NULL,
    during         tstzrange NOT NULL CHECK (NOT isempty(during) AND NOT lower_inf(during) AND NOT upper_inf(during)),
    active         boolean NOT NULL DEFAULT true,
    CONSTRAINT allocation_no_double_booking EXCLUDE USING gist (node_id WITH =, during WITH &&) WHERE (active)
);
CREATE INDEX allocation_reservation ON allocation (reservation_id);

-- The complement of a node's active allocations: split on booking, merged on cancel, always under the node's
-- row lock. "Nodes free for the whole window" is then `during @> window` on one GiST index.
CREATE TABLE free_gap (
    id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    node_id bigint NOT NULL REFERENCES node (id),
    pool_id uuid   NOT NULL,
    during  tstzrange NOT NULL CHECK (NOT isempty(during)),
    CONSTRAINT free_gap_disjoint EXCLUDE USING gist (node_id WITH =, during WITH &&)
);
CREATE INDEX free_gap_search ON free_gap USING gist (pool_id, during);

INSERT INTO free_gap (node_id, pool_id, during) SELECT id, pool_id, tstzrange(NULL, NULL) FROM node;

-- Capacity calendar: per node and hour, how many active allocations touch it (a GPU counts as allocated in an
-- hour when any part of it is); per pool and hour, how many nodes are touched, striped by node so that
-- concurrent bookings of one pool rarely wait on the same row. Rebuilt from allocations by Capacity.rebuild.
-- Counts change only through ordered upserts (a decrement is an upsert of -1), so no CHECK (>= 0) here: it
-- would be evaluated on the proposed row before the conflict turns it into an update.
CREATE TABLE node_hour (
    node_id bigint NOT NULL,
    pool_id uuid   NOT NULL,
    hour    timestamptz NOT NULL,
    refs    int    NOT NULL,
    PRIMARY KEY (node_id, hour)
);
CREATE INDEX node_hour_pool ON node_hour (pool_id, hour) WHERE refs > 0;

CREATE TABLE pool_hour (
    pool_id         uuid     NOT NULL,
    hour            timestamptz NOT NULL,
    stripe          smallint NOT NULL,
    allocated_nodes int      NOT NULL,
    PRIMARY KEY (pool_id, hour, stripe)
);
