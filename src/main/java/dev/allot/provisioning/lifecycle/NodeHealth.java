package dev.allot.provisioning.lifecycle;

import org.jspecify.annotations.Nullable;

/**
 * One node of a cluster as last seen by the lifecycle.
 *
 * @param state the orchestrator's view (Slurm's {@code IDLE}, Kubernetes' {@code Ready}, ...)
 * @param health {@code PASSED} or {@code FAILED} by the last check, {@code NOT_CHECKED} when the driver runs none; as
 * shown to the tenant also {@code CHECKING}, {@code REBOOTING}, {@code QUARANTINED} or {@code REPLACED}, read as it
 * is now (the lifecycle's {@code NodeHealthNow})
 * @param detail the check's output, or why it was not run
 */
public record NodeHealth(
        String hostname,
        @Nullable String state,
        String health,
        @Nullable String detail) {}
