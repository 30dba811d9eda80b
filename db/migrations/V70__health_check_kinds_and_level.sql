-- provisioning/health: gpu-burn and nvbandwidth checks, and the DCGM diagnostic level (1 to 3) of a DCGM_DIAG.
ALTER TABLE cluster_health_check DROP CONSTRAINT cluster_health_check_kind_check;
ALTER TABLE cluster_health_check ADD CONSTRAINT cluster_health_check_kind_check
    CHECK (kind IN ('NVIDIA_SMI', 'DCGM_DIAG', 'NCCL_ALL_REDUCE', 'GPU_BURN', 'NVBANDWIDTH'));
ALTER TABLE cluster_health_check ADD COLUMN level smallint
    CHECK (level IS NULL OR (level BETWEEN 1 AND 3 AND kind = 'DCGM_DIAG'));
