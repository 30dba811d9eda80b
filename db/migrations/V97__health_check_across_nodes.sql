-- provisioning/health: an on-demand NCCL all-reduce run as one job across all of a cluster's nodes (issue 13).
ALTER TABLE cluster_health_check ADD COLUMN across_nodes boolean NOT NULL DEFAULT false
    CHECK (NOT across_nodes OR kind = 'NCCL_ALL_REDUCE');
ALTER TABLE cluster_health_check ADD COLUMN across_result jsonb;
