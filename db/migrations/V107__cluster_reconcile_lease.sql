-- Issue 26: the reconciler converges a serving cluster's nodes to its reservation's allocations. One replica at a
-- time owns a cluster's reconciliation: it claims this lease (a conditional UPDATE), talks to the driver without
-- holding a row lock, and gives the lease back; a replica that dies while holding it loses it when it runs out.
ALTER TABLE cluster ADD COLUMN reconciling_until timestamptz;

-- the periodic pass reads the serving clusters whose window runs now
CREATE INDEX cluster_serving ON cluster (ends_at) WHERE open AND state IN ('READY', 'DEGRADED');

-- what the reconciler did, on the cluster's timeline
ALTER TABLE cluster_event DROP CONSTRAINT cluster_event_step_check;
ALTER TABLE cluster_event ADD CONSTRAINT cluster_event_step_check
    CHECK (step IN ('schedule', 'provision', 'teardown', 'watchdog', 'health-check', 'remediation', 'reconcile'));
