package dev.allot.provisioning.health;

/** Checks a driver may run on a node before handover or on demand. */
public enum HealthCheckKind {

	NVIDIA_SMI, DCGM_DIAG, NCCL_ALL_REDUCE

}
