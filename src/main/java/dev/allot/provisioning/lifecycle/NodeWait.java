package dev.allot.provisioning.lifecycle;

import dev.allot.booking.Holding;
import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.provisioning.driver.ClusterRef;
import dev.allot.provisioning.driver.Endpoints;
import dev.allot.provisioning.driver.NodesUnavailableException;
import dev.allot.shared.UtcText;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A build waiting for nodes another reservation or cluster still holds: which of its nodes are still held, what the
 * cluster keeps meanwhile, and when the step looks again (or gives up, after the window's start plus
 * {@code start-grace}).
 */
@Component
class NodeWait {

    /** How soon a step that waits for a node whose holder has let go of it (its cluster going) looks again. */
    static final Duration WAIT_FOR_TEARDOWN = Duration.ofSeconds(30);

    private final ClusterRepository clusters;

    private final ReservationLifecycle reservations;

    private final Failures failures;

    private final Timeline timeline;

    private final LifecycleProperties properties;

    private final BuildProgress progress;

    private final TransactionTemplate transactions;

    private final Clock clock;

    NodeWait(
            ClusterRepository clusters,
            ReservationLifecycle reservations,
            Failures failures,
            Timeline timeline,
            LifecycleProperties properties,
            BuildProgress progress,
            TransactionTemplate transactions,
            Clock clock) {
        this.clusters = clusters;
        this.reservations = reservations;
        this.failures = failures;
        this.timeline = timeline;
        this.properties = properties;
        this.progress = progress;
        this.transactions = transactions;
        this.clock = clock;
    }

    /**
     * The driver finds nodes of this reservation still in another reservation's cluster. The allocations say
     * whether that is a wait or a failure: a node another reservation holds until T (a preempted one keeping its
     * nodes for its notice) is free at T, when that cluster is torn down; one whose holder has let go already is
     * being torn down now. So the step waits ("waiting for node X, free at T", on the timeline), which is never an
     * error and uses no retry, until the reservation's start plus {@code start-grace}: then the reservation fails,
     * and its tenant is told.
     */
    // the callback may answer null (TransactionCallback<T extends @Nullable Object>), seen only in JSpecify mode
    @SuppressWarnings("NullAway")
    @Nullable
    Instant waitFor(UUID id, NodesUnavailableException refused, int attempt) {
        return transactions.execute(status -> {
            Cluster cluster = clusters.findForUpdate(id).orElse(null);
            Reservation reservation = reservations.find(id).orElse(null);
            if (cluster == null
                    || reservation == null
                    || !cluster.open()
                    || !cluster.state().isBuilding()) {
                return null;
            }
            Instant now = clock.instant();
            Instant deadline = reservation.startsAt().plus(properties.startGrace());
            List<Holding> holders = reservations.heldBefore(id, now).stream()
                    .filter(h -> refused.nodes().contains(h.node()))
                    .toList();
            if (!now.isBefore(deadline)) {
                failures.giveUpBuilding(
                        id,
                        "Nodes " + String.join(", ", refused.nodes())
                                + " were still held by another cluster "
                                + properties.startGrace().toMinutes()
                                + " minutes after the window's start",
                        attempt,
                        Timeline.PROVISION);
                return null;
            }
            Instant freeAt =
                    holders.stream().map(Holding::until).max(Instant::compareTo).orElse(now);
            // the holder's teardown runs at freeAt and takes a moment: look again a little after it
            Instant next = (freeAt.isAfter(now) ? freeAt : now).plus(WAIT_FOR_TEARDOWN);
            if (next.isAfter(deadline)) {
                next = deadline;
            }
            // a node whose holder's allocation has ended is held only by a cluster that is being torn down
            String detail = refused.nodes().stream()
                    .map(node -> holders.stream()
                            .filter(h -> h.node().equals(node))
                            .map(h -> node + ", free at " + UtcText.of(h.until()))
                            .findFirst()
                            .orElse(node + ", whose cluster is being torn down"))
                    .collect(Collectors.joining("; "));
            timeline.record(
                    id,
                    Timeline.PROVISION,
                    "WAITING",
                    cluster.state(),
                    attempt,
                    "Waiting for node " + detail + ". Looking again at " + UtcText.of(next)
                            + "; the build goes on once the nodes are free.");
            return next;
        });
    }

    /**
     * The reservation's nodes that another reservation or cluster still has: a cluster built a lead time before
     * its window must not take a node the one before still has. The node is another reservation's until that
     * allocation ends (and its cluster's until its teardown removed it), whatever the driver would allow (a driver
     * that checks nothing, two windows back to back).
     */
    List<String> nodesStillHeld(Reservation reservation) {
        Instant now = clock.instant();
        Set<String> held = new TreeSet<>(clusters.inOtherClusters(reservation.id(), reservation.nodes()));
        // another reservation's holding that has begun and runs on: its cluster has the node, or will at once
        reservations.heldBefore(reservation.id(), now).stream()
                .filter(h -> !h.from().isAfter(now) && reservation.nodes().contains(h.node()))
                .forEach(h -> held.add(h.node()));
        return List.copyOf(held);
    }

    /**
     * Built and checked on the nodes that were free: the cluster keeps what it has (its nodes and their checks, stored
     * for the next attempt) and waits for the rest, which the step adds and checks as soon as they are free. The wait
     * itself is {@link #waitFor}'s, as for a build that could start on no node.
     */
    void waitForTheRest(
            Reservation reservation, Endpoints endpoints, List<NodeHealth> checked, List<String> awaited, int attempt) {
        UUID id = reservation.id();
        Overtaken overtaken = transactions.execute(status -> {
            Cluster cluster = clusters.findForUpdate(id).orElseThrow();
            if (cluster.state() != ClusterState.RUNNING_ACCEPTANCE_TESTS || !cluster.open()) {
                return Overtaken.of(cluster, attempt, timeline);
            }
            clusters.built(id, endpoints, checked);
            timeline.record(
                    id,
                    Timeline.PROVISION,
                    "PROGRESSED",
                    cluster.state(),
                    attempt,
                    "Built and checked on "
                            + String.join(", ", Acceptance.hostnames(checked)) + ", " + checked.size() + " of the "
                            + reservation.nodes().size() + " nodes booked; " + String.join(", ", awaited)
                            + (awaited.size() == 1 ? " joins" : " join") + " as soon as another cluster lets go of "
                            + (awaited.size() == 1 ? "it" : "them")
                            + ", and the cluster is handed over with every node.");
            return Overtaken.NO;
        });
        progress.unlessOvertaken(
                overtaken, new ClusterRef(id, reservation.tenant()), reservation.pool(), attempt, () -> {
                    throw NodesUnavailableException.heldByAnother(awaited, "still held by another cluster");
                });
    }
}
