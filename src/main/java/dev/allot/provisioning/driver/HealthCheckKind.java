package dev.allot.provisioning.driver;

/**
 * Checks a driver may run on a node before handover or on demand: {@code nvidia-smi} (GPU count, ECC, Xid),
 * {@code dcgmi diag} (levels 1 to 3), gpu-burn (stress), nccl-tests' {@code all_reduce_perf} (bus bandwidth) and
 * nvbandwidth (copy bandwidth). Their outputs are judged in {@code provisioning.checks}.
 */
public enum HealthCheckKind {
    NVIDIA_SMI,
    DCGM_DIAG,
    NCCL_ALL_REDUCE,
    GPU_BURN,
    NVBANDWIDTH
}
