-- Quota requests (issue 31): a tenant admin asks for a quota, with a reason; a platform admin approves it (applied
-- with the checks of a direct change) or denies it (the reason kept). At most one request of a tenant waits.
CREATE TABLE quota_request (
    id              uuid PRIMARY KEY,
    tenant_id       uuid NOT NULL REFERENCES tenant (id),
    tenant_slug     text NOT NULL,
    requested_by    text NOT NULL,
    reason          text NOT NULL CHECK (length(reason) BETWEEN 1 AND 1000),
    status          text NOT NULL CHECK (status IN ('PENDING', 'APPROVED', 'DENIED', 'WITHDRAWN')),
    created_at      timestamptz NOT NULL,
    decided_by      text,
    decided_at      timestamptz,
    decision_reason text CHECK (length(decision_reason) <= 1000)
);
CREATE UNIQUE INDEX quota_request_one_pending ON quota_request (tenant_id) WHERE status = 'PENDING';
CREATE INDEX quota_request_newest ON quota_request (created_at DESC, id);

-- the policies a request asks for, stored as a tenant's are (quota_policy), so that they read back the same way
CREATE TABLE quota_request_policy (LIKE quota_policy INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
ALTER TABLE quota_request_policy DROP COLUMN tenant_id,
    ADD COLUMN request_id uuid NOT NULL REFERENCES quota_request (id),
    ADD PRIMARY KEY (request_id, gpu_type_id),
    ADD FOREIGN KEY (gpu_type_id) REFERENCES gpu_type (id);
