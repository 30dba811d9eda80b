package dev.allot.provisioning.lifecycle;

import java.util.Set;

/**
 * A reservation's cluster, as its tenant sees it: {@code PENDING} (booked, not started) → {@code CREATING} (the
 * driver builds it) → {@code INSTALLING_DRIVERS} (the CUDA driver choice applied and the build verified) →
 * {@code RUNNING_ACCEPTANCE_TESTS} → {@code READY} → ({@code DEGRADED}: still usable, something is wrong) →
 * {@code DELETING} → {@code DELETED}; or {@code FAILED}, with the reason, when provisioning or teardown gave up.
 */
public enum ClusterState {
    PENDING,
    CREATING,
    INSTALLING_DRIVERS,
    RUNNING_ACCEPTANCE_TESTS,
    READY,
    DEGRADED,
    DELETING,
    DELETED,
    FAILED;

    static final Set<ClusterState> BUILDING = Set.of(CREATING, INSTALLING_DRIVERS, RUNNING_ACCEPTANCE_TESTS);

    static final Set<ClusterState> SERVING = Set.of(READY, DEGRADED);

    boolean isBuilding() {
        return BUILDING.contains(this);
    }

    public boolean isServing() {
        return SERVING.contains(this);
    }
}
