-- inventory: GPU types, pools, nodes and their states. Nodes carry the topology booking prefers (rack, InfiniBand block).

CREATE EXTENSION IF NOT EXISTS btree_gist;

CREATE TABLE gpu_type (
    id           uuid PRIMARY KEY,
    code         text NOT NULL UNIQUE CHECK (code ~ '^[A-Z0-9][A-Z0-9-]{1,19}$'),
    memory_gb    int  NOT NULL CHECK (memory_gb BETWEEN 1 AND 4096),
    interconnect text CHECK (length(interconnect) BETWEEN 1 AND 50),
    created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE pool (
    id            uuid PRIMARY KEY,
    name          text NOT NULL UNIQUE CHECK (name ~ '^[a-z][a-z0-9-]{1,38}[a-z0-9]$'),
    gpu_type_id   uuid NOT NULL REFERENCES gpu_type (id),
    gpus_per_node int  NOT NULL CHECK (gpus_per_node BETWEEN 1 AND 64),
    region        text NOT NULL CHECK (length(region) BETWEEN 1 AND 50),
    created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE node (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    hostname         text NOT NULL UNIQUE CHECK (hostname ~ '^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$'),
    pool_id          uuid NOT NULL REFERENCES pool (id),
    rack             text NOT NULL CHECK (length(rack) BETWEEN 1 AND 50),
    ib_block         text NOT NULL CHECK (length(ib_block) BETWEEN 1 AND 50),
    cuda_drivers     text[] NOT NULL DEFAULT '{}',
    state            text NOT NULL CHECK (state IN ('AVAILABLE', 'QUARANTINED', 'DRAINING', 'IN_REPAIR', 'RETIRED')),
    state_reason     text,
    state_changed_at timestamptz NOT NULL DEFAULT now(),
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX node_pool ON node (pool_id, hostname);
