-- provisioning: on-demand health checks of a ready cluster's nodes, run by a db-scheduler step.
CREATE TABLE cluster_health_check (
    id              uuid PRIMARY KEY,
    reservation_id  uuid NOT NULL REFERENCES cluster (reservation_id),
    kind            text NOT NULL CHECK (kind IN ('NVIDIA_SMI', 'DCGM_DIAG', 'NCCL_ALL_REDUCE')),
    status          text NOT NULL CHECK (status IN ('QUEUED', 'RUNNING', 'PASSED', 'FAILED', 'ERROR')),
    requested_by    text NOT NULL,
    requested_at    timestamptz NOT NULL,
    finished_at     timestamptz,
    detail          text,
    results         jsonb NOT NULL DEFAULT '[]',
    idempotency_key text CHECK (length(idempotency_key) BETWEEN 1 AND 200),
    UNIQUE (reservation_id, idempotency_key)
);
CREATE INDEX cluster_health_check_reservation ON cluster_health_check (reservation_id, requested_at);
