package dev.allot.provisioning.lifecycle;

import dev.allot.booking.spec.ClusterSpec.Orchestrator;
import dev.allot.provisioning.driver.ClusterRef;
import dev.allot.provisioning.driver.Endpoints;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The lifecycle's record of one reservation's cluster.
 *
 * @param provisionAt when building is due (the reservation's start minus the lead time)
 * @param endsAt the reservation's end, when teardown is due (moved by extensions)
 * @param provisioningStartedAt when building first began ({@code null}: nothing was ever built, teardown need not
 * ask the driver)
 * @param open whether the lifecycle still has work to do on it
 */
public record Cluster(
        UUID reservationId,
        String tenant,
        String pool,
        Orchestrator orchestrator,
        ClusterState state,
        @Nullable String stateReason,
        Instant stateChangedAt,
        Instant provisionAt,
        Instant endsAt,
        @Nullable Instant provisioningStartedAt,
        @Nullable Instant readyAt,
        @Nullable Instant tornDownAt,
        @Nullable String failureReason,
        boolean open,
        Endpoints endpoints,
        List<NodeHealth> nodes) {

    public Cluster {
        nodes = List.copyOf(nodes);
    }

    public ClusterRef ref() {
        return new ClusterRef(reservationId, tenant);
    }

    boolean everBuilt() {
        return provisioningStartedAt != null;
    }

    // The lifecycle's transitions: each names the states it may leave, here and nowhere else. A step decides under
    // the cluster's row lock and stores the result with Clusters.moved, which also refuses to overwrite a move that
    // another step made first.

    /** Building starts, or starts over after a failed attempt (a driver call is idempotent). */
    Cluster startBuilding(Instant now) {
        return moveTo(
                ClusterState.CREATING,
                null,
                now,
                ClusterState.PENDING,
                ClusterState.CREATING,
                ClusterState.INSTALLING_DRIVERS,
                ClusterState.RUNNING_ACCEPTANCE_TESTS);
    }

    /** The driver built the cluster; the CUDA driver choice is applied and verified next. */
    Cluster installingDrivers(Instant now) {
        return moveTo(ClusterState.INSTALLING_DRIVERS, null, now, ClusterState.CREATING);
    }

    Cluster runningAcceptanceTests(Instant now) {
        return moveTo(ClusterState.RUNNING_ACCEPTANCE_TESTS, null, now, ClusterState.INSTALLING_DRIVERS);
    }

    /** Every node passed: handed over to the tenant. */
    Cluster handOver(Instant now) {
        return moveTo(ClusterState.READY, null, now, ClusterState.RUNNING_ACCEPTANCE_TESTS);
    }

    /** Still usable, but something is wrong; a degraded cluster may be degraded again for another reason. */
    Cluster degrade(String reason, Instant now) {
        return moveTo(ClusterState.DEGRADED, reason, now, ClusterState.READY, ClusterState.DEGRADED);
    }

    /** What degraded the cluster is mended. */
    Cluster recover(Instant now) {
        return moveTo(ClusterState.READY, null, now, ClusterState.DEGRADED);
    }

    /** Teardown starts: the window ended, the reservation was cancelled, or it failed before becoming ready. */
    Cluster startDeleting(String why, Instant now) {
        return moveTo(
                ClusterState.DELETING,
                why,
                now,
                ClusterState.PENDING,
                ClusterState.CREATING,
                ClusterState.INSTALLING_DRIVERS,
                ClusterState.RUNNING_ACCEPTANCE_TESTS,
                ClusterState.READY,
                ClusterState.DEGRADED);
    }

    /** The driver confirmed that nothing of the cluster is left. */
    Cluster deleted(Instant now) {
        return moveTo(ClusterState.DELETED, null, now, ClusterState.DELETING);
    }

    /** Provisioning or teardown gave up; only a deleted cluster is past failing. */
    Cluster fail(String reason, Instant now) {
        Cluster failed = moveTo(
                ClusterState.FAILED,
                reason,
                now,
                ClusterState.PENDING,
                ClusterState.CREATING,
                ClusterState.INSTALLING_DRIVERS,
                ClusterState.RUNNING_ACCEPTANCE_TESTS,
                ClusterState.READY,
                ClusterState.DEGRADED,
                ClusterState.DELETING,
                ClusterState.FAILED);
        return new Cluster(
                reservationId,
                tenant,
                pool,
                orchestrator,
                failed.state,
                failed.stateReason,
                failed.stateChangedAt,
                provisionAt,
                endsAt,
                provisioningStartedAt,
                readyAt,
                tornDownAt,
                reason,
                open,
                endpoints,
                nodes);
    }

    private Cluster moveTo(ClusterState next, @Nullable String reason, Instant now, ClusterState... from) {
        if (!Set.of(from).contains(state)) {
            throw new ClusterTransitionRefusedException(reservationId, state, next);
        }
        return new Cluster(
                reservationId,
                tenant,
                pool,
                orchestrator,
                next,
                reason,
                now,
                provisionAt,
                endsAt,
                provisioningStartedAt,
                readyAt,
                tornDownAt,
                failureReason,
                open,
                endpoints,
                nodes);
    }
}
