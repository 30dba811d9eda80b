-- A node's history (issue 30): each acceptance check run on a node, recorded when it starts and again when it
-- finishes, so that the history shows the checks before handover, the one still running among them.

-- provisioning/health: one run of one check on one node before a cluster's handover.
CREATE TABLE node_check_run (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    hostname       text NOT NULL,
    reservation_id uuid NOT NULL,
    purpose        text NOT NULL CHECK (purpose IN ('ACCEPTANCE')),
    kind           text NOT NULL CHECK (kind IN ('NVIDIA_SMI', 'DCGM_DIAG', 'NCCL_ALL_REDUCE', 'GPU_BURN', 'NVBANDWIDTH')),
    started_at     timestamptz NOT NULL,
    finished_at    timestamptz,
    passed         boolean,
    fault          text CHECK (fault IN ('NONE', 'SOFTWARE', 'HARDWARE')),
    summary        text CHECK (length(summary) <= 2000),
    output         text CHECK (length(output) <= 100000),
    CHECK ((finished_at IS NULL) = (passed IS NULL))
);
CREATE INDEX node_check_run_history ON node_check_run (hostname, started_at DESC, id DESC);
