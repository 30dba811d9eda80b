package dev.allot.provisioning.lifecycle;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * The one class that decides a cluster's transitions. The steps that talk to the driver (building, checking,
 * reconciling, remediating, tearing down) report what happened; this class decides what state that makes, under
 * the cluster's row lock which the caller holds, and stores it. {@link Cluster} says which states each move may
 * leave; {@link ClusterRepository#moved} stores a move only over the state it left, so a step that lost a race learns it.
 * Nothing else calls either ({@code ModularityTests.onlyClusterTransitionsMovesACluster}).
 */
@Component
public class ClusterTransitions {

    /** How the reason of a cluster a failed health check degraded begins: such a cluster recovers once no node fails. */
    private static final String DEGRADED_BY_CHECK = "A health check failed on ";

    private final ClusterRepository clusters;

    private final Clock clock;

    ClusterTransitions(ClusterRepository clusters, Clock clock) {
        this.clusters = clusters;
        this.clock = clock;
    }

    /** Building starts, or starts over after a failed attempt or a wait for nodes. */
    Cluster buildStarted(Cluster cluster) {
        Instant now = clock.instant();
        Cluster moved = store(cluster, cluster.startBuilding(now));
        clusters.startedBuilding(cluster.reservationId(), now);
        return moved;
    }

    /** The driver built the cluster: its CUDA driver and parts are verified next. */
    Cluster built(Cluster cluster) {
        return store(cluster, cluster.installingDrivers(clock.instant()));
    }

    /** Every part was read back: the acceptance checks run next. */
    Cluster verified(Cluster cluster) {
        return store(cluster, cluster.runningAcceptanceTests(clock.instant()));
    }

    /**
     * Acceptance is over: the cluster is handed over, {@code READY}, or {@code DEGRADED} when a check failed (a node
     * no healthy node could replace, or the all-reduce across nodes). {@code now} is the readiness billing meters from.
     */
    Cluster handedOver(Cluster cluster, @Nullable String failedCheck, Instant now) {
        Cluster ready = store(cluster, cluster.handOver(now));
        clusters.ready(cluster.reservationId(), now);
        return failedCheck == null ? ready : store(ready, ready.degrade(DEGRADED_BY_CHECK + failedCheck, now));
    }

    /**
     * A serving cluster's nodes were judged (a health check, a reboot's check, a node joining or replacing another):
     * the nodes are stored with their health, and the cluster is {@code DEGRADED} while a check fails ({@code failure}
     * says where), and {@code READY} again once no node has failed, when a check was what degraded it. A cluster
     * degraded for another reason (an update that failed) stays so. Answers the state it is in.
     */
    public ClusterState judged(Cluster cluster, List<NodeHealth> nodes, @Nullable String failure) {
        if (!nodes.equals(cluster.nodes())) {
            clusters.built(cluster.reservationId(), cluster.endpoints(), nodes);
        }
        Instant now = clock.instant();
        if (!cluster.open() || !cluster.state().isServing()) {
            return cluster.state();
        }
        if (failure != null) {
            return store(cluster, cluster.degrade(DEGRADED_BY_CHECK + failure, now))
                    .state();
        }
        boolean healthy = nodes.stream().noneMatch(n -> n.health().equals("FAILED"));
        if (healthy && degradedByACheck(cluster)) {
            return store(cluster, cluster.recover(now)).state();
        }
        return cluster.state();
    }

    /** The driver converged a serving cluster on its window again: what an earlier failed update degraded is mended. */
    ClusterState updated(Cluster cluster) {
        if (cluster.state() == ClusterState.DEGRADED && !degradedByACheck(cluster)) {
            return store(cluster, cluster.recover(clock.instant())).state();
        }
        return cluster.state();
    }

    /**
     * Provisioning gave up: a cluster not yet handed over fails; one serving stays usable, {@code DEGRADED} (an
     * update after an extension failed).
     */
    Cluster gaveUp(Cluster cluster, String reason) {
        Instant now = clock.instant();
        return store(cluster, cluster.state().isServing() ? cluster.degrade(reason, now) : cluster.fail(reason, now));
    }

    /** The reservation failed, or teardown gave up: the cluster is {@code FAILED} with the reason. */
    Cluster failed(Cluster cluster, String reason) {
        return store(cluster, cluster.fail(reason, clock.instant()));
    }

    /** Teardown starts; a failed cluster is cleaned up as it is. */
    Cluster tearingDown(Cluster cluster, String why) {
        if (cluster.state() == ClusterState.FAILED || cluster.state() == ClusterState.DELETING) {
            return cluster;
        }
        return store(cluster, cluster.startDeleting(why, clock.instant()));
    }

    /** The driver finds nothing left; a failed cluster stays {@code FAILED}. */
    Cluster tornDown(Cluster cluster) {
        return cluster.state() == ClusterState.FAILED ? cluster : store(cluster, cluster.deleted(clock.instant()));
    }

    private static boolean degradedByACheck(Cluster cluster) {
        return cluster.state() == ClusterState.DEGRADED
                && cluster.stateReason() != null
                && cluster.stateReason().startsWith(DEGRADED_BY_CHECK);
    }

    private Cluster store(Cluster before, Cluster after) {
        clusters.moved(before, after);
        return after;
    }
}
