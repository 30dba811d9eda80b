-- Project quotas (issue 31, part 4): within its tenant's quota, a project may be capped per GPU type at a number of
-- GPUs held at once and a monthly budget (what its bookings of the type cost in a month). A booking over either is
-- refused 422 project_quota_exceeded. A project is named by its slug, as quota_usage names it.
CREATE TABLE project_quota_policy (
    tenant_id      uuid    NOT NULL REFERENCES tenant (id),
    project        text    NOT NULL,
    gpu_type_id    uuid    NOT NULL REFERENCES gpu_type (id),
    max_gpus       integer CHECK (max_gpus >= 0),
    monthly_budget numeric(14,2) CHECK (monthly_budget >= 0),
    PRIMARY KEY (tenant_id, project, gpu_type_id)
);
