-- billing: per-project monthly budgets (alerts like the tenant's; a hard one refuses bookings), and quota's
-- priced usage learns which project booked it, so the hard cap is checked under the tenant's quota lock.

CREATE TABLE project_budget (
    tenant_id  uuid NOT NULL REFERENCES tenant (id),
    project    text NOT NULL,
    amount     numeric(18, 4) NOT NULL CHECK (amount > 0 AND amount < 1e12),
    currency   text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    thresholds int[] NOT NULL CHECK (cardinality(thresholds) BETWEEN 1 AND 10 AND 0 < ALL (thresholds) AND 1000 >= ALL (thresholds)),
    hard       boolean NOT NULL,
    version    bigint NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, project),
    FOREIGN KEY (tenant_id, project) REFERENCES project (tenant_id, slug)
);

ALTER TABLE quota_usage ADD COLUMN project text;
UPDATE quota_usage u SET project = r.project_slug FROM reservation r WHERE r.id = u.reservation_id;
CREATE INDEX quota_usage_project ON quota_usage USING gist (tenant_id, project, during) WHERE project IS NOT NULL;
