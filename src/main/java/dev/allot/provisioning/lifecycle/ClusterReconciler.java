package dev.allot.provisioning.lifecycle;

import dev.allot.booking.Holding;
import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.provisioning.checks.NodeChecks;
import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterDrivers;
import dev.allot.provisioning.driver.ClusterStatus;
import dev.allot.provisioning.driver.NodesUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The reconciler: a level-triggered control loop over serving clusters, in the manner of a Kubernetes controller.
 * For each cluster, <em>desired</em> is the set of nodes its reservation's allocations hold from now until the
 * lead time ahead (the one record of holding), <em>actual</em> the nodes the driver reports in the cluster. A pass
 * converges actual to desired: it takes out nodes no longer held (a node replaced, a holding that ended), adds
 * nodes held but missing (a replacement, a driver that lost one) and runs acceptance on each added node, and
 * schedules the teardown when nothing is held any more. A cluster the driver no longer finds is built again.
 * <p>
 * It acts on what it reads, not on what happened: a pass after a crash, a lost reply or a change made behind
 * Allot's back repairs the same way as the first. One replica at a time owns a cluster's reconciliation, through a
 * lease on the cluster row ({@link ClusterRepository#claim}), so no row lock is held during driver calls; the periodic pass
 * (every {@code reconcile-interval}) runs on one replica at a time; between passes it wakes as holdings change
 * ({@link ReconcilerWake}), and callers that changed the allocations (remediation replacing a node) reconcile at
 * once.
 */
@Component
public class ClusterReconciler {

    private static final Logger log = LoggerFactory.getLogger(ClusterReconciler.class);

    /** How long a claim lasts: longer than any driver call (each bounded by the pool's timeout) and checks. */
    static final Duration LEASE = Duration.ofMinutes(10);

    private static final int BATCH = 500;

    /**
     * What one reconciliation did: the nodes it took out and added, the acceptance outcome of each added node
     * (none where the driver runs no checks), and the nodes it could not add yet (still in another cluster).
     */
    public record Reconciled(
            Outcome outcome,
            List<String> removed,
            List<String> added,
            List<NodeChecks.Outcome> checks,
            List<String> waitingFor) {

        static Reconciled of(Outcome outcome) {
            return new Reconciled(outcome, List.of(), List.of(), List.of(), List.of());
        }

        public Optional<NodeChecks.Outcome> check(String node) {
            return checks.stream().filter(o -> o.node().equals(node)).findFirst();
        }
    }

    public enum Outcome {

        /** The cluster is not serving, or another replica reconciles it now. */
        NOT_OWNED,
        /** The driver reports exactly the nodes held. */
        CONVERGED,
        /** Nodes were taken out or added. */
        CHANGED,
        /** Nothing is held any more: the teardown is scheduled now. */
        TEARING_DOWN,
        /** The driver finds no cluster: provisioning builds it again. */
        REBUILDING
    }

    private final ClusterRepository clusters;

    private final ReservationLifecycle reservations;

    private final ClusterDrivers drivers;

    private final ClusterSchedule schedule;

    private final Timeline timeline;

    private final NodeChecks nodeChecks;

    private final LifecycleProperties properties;

    private final TransactionTemplate transactions;

    private final Clock clock;

    private final ReconciliationRecord reconciliation;

    ClusterReconciler(
            ClusterRepository clusters,
            ReservationLifecycle reservations,
            ClusterDrivers drivers,
            ClusterSchedule schedule,
            Timeline timeline,
            NodeChecks nodeChecks,
            LifecycleProperties properties,
            TransactionTemplate transactions,
            Clock clock,
            ReconciliationRecord reconciliation) {
        this.reconciliation = reconciliation;
        this.clusters = clusters;
        this.reservations = reservations;
        this.drivers = drivers;
        this.schedule = schedule;
        this.timeline = timeline;
        this.nodeChecks = nodeChecks;
        this.properties = properties;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** The periodic pass: every serving cluster whose window runs now; answers how many it changed. */
    public int pass() {
        int changed = 0;
        for (UUID id : clusters.serving(clock.instant(), BATCH)) {
            try {
                Outcome outcome = reconcile(id).outcome();
                if (outcome != Outcome.NOT_OWNED && outcome != Outcome.CONVERGED) {
                    changed++;
                }
            } catch (RuntimeException ex) {
                // the next pass tries again: the reconciler acts on what it reads, so nothing is lost
                log.warn("Could not reconcile the cluster of reservation {}", id, ex);
            }
        }
        return changed;
    }

    /**
     * Acts on changes as they are announced ({@link ReconcilerWake}): reconciles the serving clusters of
     * reservations whose allocations changed, and, in pools where a cluster let go of nodes, every cluster waiting
     * for nodes that no other cluster has any more (a serving one is reconciled, a build looks again at once).
     * Answers how many clusters it acted on.
     */
    int woken(Set<UUID> reservationIds, Set<UUID> poolIds) {
        Instant now = clock.instant();
        Set<UUID> reconcile =
                new LinkedHashSet<>(reservationIds.isEmpty() ? List.of() : clusters.servingAmong(reservationIds, now));
        List<UUID> builds = new ArrayList<>();
        for (ClusterRepository.Waiting waiting :
                poolIds.isEmpty() ? List.<ClusterRepository.Waiting>of() : clusters.waitingIn(poolIds, now)) {
            UUID id = waiting.reservationId();
            List<String> held = reservations.holdings(id).stream()
                    .map(Holding::node)
                    .distinct()
                    .toList();
            if (!clusters.inOtherClusters(id, held).isEmpty()) {
                continue; // still waiting: a later let-go wakes it
            }
            if (waiting.serving()) {
                reconcile.add(id);
            } else {
                builds.add(id);
            }
        }
        for (UUID id : builds) {
            transactions.executeWithoutResult(
                    status -> schedule.provision(id, now, "the nodes it waited for were let go of"));
        }
        int acted = builds.size();
        for (UUID id : reconcile) {
            try {
                acted += reconcile(id).outcome() == Outcome.NOT_OWNED ? 0 : 1;
            } catch (RuntimeException ex) {
                log.warn("Could not reconcile the cluster of reservation {}", id, ex);
            }
        }
        return acted;
    }

    /**
     * Converges one serving cluster's nodes to its reservation's holdings, when this replica can claim it; a
     * claim another replica holds is waited for up to {@code patience} (zero: not at all).
     */
    public Reconciled reconcile(UUID id, Duration patience) {
        Instant giveUp = Instant.now().plus(patience);
        while (true) {
            Reconciled done = reconcile(id);
            if (done.outcome() != Outcome.NOT_OWNED
                    || !Instant.now().isBefore(giveUp)
                    || clusters.find(id)
                            .filter(c -> c.open() && c.state().isServing())
                            .isEmpty()) {
                return done;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return done;
            }
        }
    }

    Reconciled reconcile(UUID id) {
        Instant now = clock.instant();
        Cluster cluster = transactions
                .execute(status -> clusters.claim(id, now, now.plus(LEASE)))
                .orElse(null);
        if (cluster == null) {
            return Reconciled.of(Outcome.NOT_OWNED);
        }
        try {
            return converge(cluster, now);
        } finally {
            transactions.executeWithoutResult(status -> clusters.release(id));
        }
    }

    private Reconciled converge(Cluster cluster, Instant now) {
        UUID id = cluster.reservationId();
        Set<String> desired = desired(reservations.holdings(id), now, properties.leadTime());
        if (desired.isEmpty()) {
            return tearDown(cluster, now);
        }
        ClusterDriver driver = drivers.forPool(cluster.pool());
        ClusterStatus actual = driver.status(cluster.ref());
        if (actual.phase() == ClusterStatus.Phase.ABSENT) {
            return rebuild(cluster, desired, now);
        }
        List<String> extra =
                actual.nodes().stream().filter(node -> !desired.contains(node)).toList();
        List<String> missing =
                desired.stream().filter(node -> !actual.nodes().contains(node)).toList();
        if (extra.isEmpty() && missing.isEmpty()) {
            return Reconciled.of(Outcome.CONVERGED);
        }
        if (!extra.isEmpty()) {
            driver.removeNodes(cluster.ref(), extra);
        }
        List<String> added = List.of();
        List<String> waiting = List.of();
        List<NodeChecks.Outcome> checks = new ArrayList<>();
        if (!missing.isEmpty()) {
            // a node another cluster still has (its teardown not done yet) is added by a later pass
            List<String> elsewhere = clusters.inOtherClusters(id, missing);
            waiting = elsewhere;
            List<String> free =
                    missing.stream().filter(node -> !elsewhere.contains(node)).toList();
            try {
                if (!free.isEmpty()) {
                    driver.addNodes(cluster.ref(), free);
                    added = free;
                }
            } catch (NodesUnavailableException ex) {
                waiting = missing;
            }
            if (!added.isEmpty() && driver.supportsHealthChecks()) {
                Reservation reservation = reservations.find(id).orElseThrow();
                for (String node : added) {
                    checks.add(nodeChecks.accept(driver, NodeChecks.Target.of(cluster.ref(), reservation), node));
                }
            }
        }
        Reconciled done = new Reconciled(Outcome.CHANGED, extra, added, checks, waiting);
        transactions.executeWithoutResult(status -> reconciliation.record(id, done));
        return done;
    }

    /** Nothing is held any more: the teardown is scheduled now. */
    private Reconciled tearDown(Cluster cluster, Instant now) {
        return acted(
                cluster,
                Outcome.TEARING_DOWN,
                () -> schedule.teardown(cluster.reservationId(), now, "its reservation holds no node any more"),
                "The reservation holds no node any more: the cluster is torn down now.");
    }

    /** The driver finds no cluster: provisioning builds it again. */
    private Reconciled rebuild(Cluster cluster, Set<String> desired, Instant now) {
        return acted(
                cluster,
                Outcome.REBUILDING,
                () -> schedule.provision(cluster.reservationId(), now, "the driver finds the cluster gone"),
                "The driver finds no cluster on " + String.join(", ", desired) + ": it is built again.");
    }

    /** Schedules the step that acts on the cluster and says so on its timeline, in one transaction. */
    private Reconciled acted(Cluster cluster, Outcome outcome, Runnable step, String said) {
        transactions.executeWithoutResult(status -> {
            step.run();
            timeline.record(cluster.reservationId(), Timeline.RECONCILE, "ACTED", cluster.state(), null, said);
        });
        return Reconciled.of(outcome);
    }

    /**
     * The nodes a serving cluster should have at {@code now}: every node a holding covers from now to the lead time
     * ahead (or to the reservation's start, for a cluster built ahead of it). A node the reservation lets go of
     * before its end (replaced) is out as soon as its holding ends within the current minute (allocations are whole
     * minutes), so that a replacement takes effect at once; the reservation's own end is the teardown's.
     */
    static Set<String> desired(List<Holding> holdings, Instant now, Duration leadTime) {
        if (holdings.isEmpty()) {
            return Set.of();
        }
        Instant heldUntil =
                holdings.stream().map(Holding::until).max(Instant::compareTo).orElseThrow();
        Instant start =
                holdings.stream().map(Holding::from).min(Instant::compareTo).orElseThrow();
        Instant horizon = later(now.plus(leadTime), start);
        Instant minuteEnd = now.truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1));
        Set<String> desired = new LinkedHashSet<>();
        for (Holding holding : holdings) {
            boolean letGo = holding.until().isBefore(heldUntil);
            if (!holding.from().isAfter(horizon) && holding.until().isAfter(letGo ? minuteEnd : now)) {
                desired.add(holding.node());
            }
        }
        return desired;
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
