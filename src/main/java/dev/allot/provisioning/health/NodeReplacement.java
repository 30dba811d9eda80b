package dev.allot.provisioning.health;

import static dev.allot.provisioning.health.Remediation.shorten;

import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.provisioning.NodeDegradationEnded;
import dev.allot.provisioning.NodeNotReplaced;
import dev.allot.provisioning.checks.NodeChecks;
import dev.allot.provisioning.lifecycle.Cluster;
import dev.allot.provisioning.lifecycle.ClusterReconciler;
import dev.allot.provisioning.lifecycle.ClusterRepository;
import dev.allot.provisioning.lifecycle.ClusterState;
import dev.allot.provisioning.lifecycle.ClusterTransitions;
import dev.allot.provisioning.lifecycle.Timeline;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The third tier of {@link Remediation}: a reservation holding a node taken out of service gets another free node
 * in its place (booking), and a live cluster is moved onto it by the reconciler, which checks the new node; when no
 * node is free, the reservation keeps the node, a serving cluster goes {@code DEGRADED} and the tenant is told
 * ({@link NodeNotReplaced}).
 */
@Component
class NodeReplacement {

    private final ReservationLifecycle reservations;

    private final ClusterRepository clusters;

    private final ClusterReconciler reconciler;

    private final ClusterTransitions transitions;

    private final Timeline timeline;

    private final ApplicationEventPublisher events;

    private final TransactionTemplate transactions;

    private final Clock clock;

    NodeReplacement(
            ReservationLifecycle reservations,
            ClusterRepository clusters,
            ClusterReconciler reconciler,
            ClusterTransitions transitions,
            Timeline timeline,
            ApplicationEventPublisher events,
            TransactionTemplate transactions,
            Clock clock) {
        this.reservations = reservations;
        this.clusters = clusters;
        this.reconciler = reconciler;
        this.transitions = transitions;
        this.timeline = timeline;
        this.events = events;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** How long a replacement waits for another replica's reconciliation of the same cluster to finish. */
    private static final Duration RECONCILE_PATIENCE = Duration.ofSeconds(30);

    /** One reservation holding a quarantined node: another node in its place (and in its live cluster), or why not. */
    boolean replaceIn(UUID reservationId, String node, String reason) {
        Optional<String> replacement = reservations.replaceNode(reservationId, node, List.of(node));
        Cluster cluster = clusters.find(reservationId).orElse(null);
        if (replacement.isEmpty()) {
            degrade(reservationId, node, reason);
            return false;
        }
        if (cluster == null) {
            return true;
        }
        String next = replacement.get();
        if (!cluster.open() || !cluster.state().isServing()) {
            // not built yet: it will be built on the new node
            timeline.record(
                    reservationId,
                    Timeline.REMEDIATION,
                    "ACTED",
                    cluster.state(),
                    null,
                    node + " was taken out of service (" + reason + "): this reservation moves to " + next + ".");
            return true;
        }
        // the allocations now say the reservation holds the replacement: the reconciler moves the cluster onto it
        ClusterReconciler.Reconciled done = reconciler.reconcile(reservationId, RECONCILE_PATIENCE);
        String how = !done.added().contains(next)
                ? "the reconciler adds it on its next pass"
                : done.check(next).map(NodeChecks.Outcome::detail).orElse("not checked on this pool");
        transactions.executeWithoutResult(status -> {
            Cluster current = clusters.findForUpdate(reservationId).orElseThrow();
            ClusterState state = transitions.judged(current, current.nodes(), null);
            timeline.record(
                    reservationId,
                    Timeline.REMEDIATION,
                    "ACTED",
                    state,
                    null,
                    shorten(
                            node
                                    + " was taken out of service (" + reason + "): replaced by " + next
                                    + " in the running cluster ("
                                    + how + ").",
                            4000));
            events.publishEvent(new NodeDegradationEnded(reservationId, node, clock.instant(), "replaced by " + next));
        });
        return true;
    }

    /**
     * No node could take the quarantined node's place: a serving cluster goes {@code DEGRADED} saying why, the
     * cluster's timeline says so, and the tenant is told ({@link NodeNotReplaced}).
     */
    private void degrade(UUID reservationId, String node, String reason) {
        String why = node + ": quarantined (" + reason + "); no spare or free node can replace it";
        transactions.executeWithoutResult(status -> {
            Reservation reservation = reservations.find(reservationId).orElseThrow();
            Cluster current = clusters.findForUpdate(reservationId).orElse(null);
            boolean live = false;
            if (current != null) {
                live = current.open() && current.state().isServing();
                ClusterState state = transitions.judged(current, current.nodes(), shorten(why, 300));
                timeline.record(
                        reservationId,
                        Timeline.REMEDIATION,
                        "FAILED",
                        state,
                        null,
                        shorten("A health check failed on " + why + ".", 4000));
            }
            events.publishEvent(new NodeNotReplaced(
                    reservationId,
                    reservation.tenant(),
                    reservation.pool(),
                    node,
                    shorten(reason, 1000),
                    live,
                    clock.instant()));
        });
    }
}
