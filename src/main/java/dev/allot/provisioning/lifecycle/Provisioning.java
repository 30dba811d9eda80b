package dev.allot.provisioning.lifecycle;

import dev.allot.booking.Holding;
import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.booking.ReservationStatus;
import dev.allot.provisioning.ClusterReady;
import dev.allot.provisioning.NodeDegraded;
import dev.allot.provisioning.checks.ClusterAllReduce;
import dev.allot.provisioning.checks.HealthProperties;
import dev.allot.provisioning.checks.NodeChecks;
import dev.allot.provisioning.checks.Verdict;
import dev.allot.provisioning.driver.BuildStep;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterDriverException;
import dev.allot.provisioning.driver.ClusterDrivers;
import dev.allot.provisioning.driver.ClusterRef;
import dev.allot.provisioning.driver.ClusterStatus;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.Endpoints;
import dev.allot.provisioning.driver.NodesUnavailableException;
import dev.allot.provisioning.driver.ProvisionedCluster;
import dev.allot.shared.UtcText;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The provision step: builds a reservation's cluster through its pool's driver, checks it, and hands it over
 * ({@code CREATING} → {@code INSTALLING_DRIVERS} → {@code RUNNING_ACCEPTANCE_TESTS} → {@code READY}, the reservation
 * {@code PROVISIONING} → {@code ACTIVE}). Every decision is taken on the stored state under the cluster's row lock,
 * never held during a driver call; driver calls are idempotent, so a step repeated after a crash or a lost reply
 * converges on the same cluster. A retryable failure is thrown for the scheduler to retry with backoff; a
 * permanent one gives up at once. A step that finds the cluster torn down meanwhile removes what it built itself.
 */
@Component
public class Provisioning {

    private static final Logger log = LoggerFactory.getLogger(Provisioning.class);

    private enum Kind {
        SKIP,
        BUILD,
        CONVERGE,
        CLEAN
    }

    private record Plan(
            Kind kind,
            @Nullable Reservation reservation,
            @Nullable Cluster cluster) {

        static final Plan SKIP = new Plan(Kind.SKIP, null, null);

        Reservation reservationToBuild() {
            return Objects.requireNonNull(reservation, "a plan to build or converge has its reservation");
        }

        Cluster clusterToBuild() {
            return Objects.requireNonNull(cluster, "a plan to build or clean has its cluster");
        }
    }

    private final ClusterRepository clusters;

    private final ReservationLifecycle reservations;

    private final ClusterDrivers drivers;

    private final Failures failures;

    private final ClusterSchedule schedule;

    private final Timeline timeline;

    private final LifecycleProperties properties;

    private final TransactionTemplate transactions;

    private final ApplicationEventPublisher events;

    private final Clock clock;

    private final NodeChecks nodeChecks;

    private final HealthProperties health;

    private final SwappedOutNodes remediation;

    private final ClusterAllReduce allReduce;

    private final TenantLogins logins;

    private final ClusterVolumes volumes;

    private final ClusterTransitions transitions;

    Provisioning(
            ClusterRepository clusters,
            ReservationLifecycle reservations,
            ClusterDrivers drivers,
            Failures failures,
            ClusterSchedule schedule,
            Timeline timeline,
            LifecycleProperties properties,
            TransactionTemplate transactions,
            ApplicationEventPublisher events,
            Clock clock,
            NodeChecks nodeChecks,
            HealthProperties health,
            SwappedOutNodes remediation,
            ClusterAllReduce allReduce,
            TenantLogins logins,
            ClusterVolumes volumes,
            ClusterTransitions transitions) {
        this.transitions = transitions;
        this.volumes = volumes;
        this.allReduce = allReduce;
        this.logins = logins;
        this.remediation = remediation;
        this.nodeChecks = nodeChecks;
        this.health = health;
        this.clusters = clusters;
        this.reservations = reservations;
        this.drivers = drivers;
        this.failures = failures;
        this.schedule = schedule;
        this.timeline = timeline;
        this.properties = properties;
        this.transactions = transactions;
        this.events = events;
        this.clock = clock;
    }

    /**
     * Runs the step; answers when to run it again when it waits for nodes another cluster still holds, else
     * {@code null}.
     */
    public @Nullable Instant run(ClusterStep step, int attempt) {
        Plan plan = transactions.execute(status -> plan(step, attempt));
        try {
            switch (plan.kind()) {
                case SKIP -> {}
                case BUILD -> build(plan.reservationToBuild(), plan.clusterToBuild(), attempt);
                case CONVERGE -> converge(plan.reservationToBuild(), attempt);
                case CLEAN ->
                    removeWhatWasBuilt(
                            plan.clusterToBuild().ref(), plan.clusterToBuild().pool(), attempt);
            }
        } catch (NodesUnavailableException ex) {
            if (!ex.retryable()) {
                failures.giveUpBuilding(step.reservationId(), ex.getMessage(), attempt, Timeline.PROVISION);
                return null;
            }
            return waitFor(step.reservationId(), ex, attempt);
        } catch (ClusterDriverException ex) {
            if (ex.retryable()) {
                throw ex;
            }
            failures.giveUpBuilding(step.reservationId(), ex.getMessage(), attempt, Timeline.PROVISION);
        } catch (IllegalArgumentException ex) {
            failures.giveUpBuilding(
                    step.reservationId(),
                    "The booking cannot be built: " + ex.getMessage(),
                    attempt,
                    Timeline.PROVISION);
        }
        return null;
    }

    /** How soon a step that waits for a node whose holder has let go of it (its cluster going) looks again. */
    static final Duration WAIT_FOR_TEARDOWN = Duration.ofSeconds(30);

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
    private @Nullable Instant waitFor(UUID id, NodesUnavailableException refused, int attempt) {
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

    private Plan plan(ClusterStep step, int attempt) {
        UUID id = step.reservationId();
        Cluster cluster = clusters.findForUpdate(id).orElse(null);
        if (cluster == null) {
            log.warn("No cluster for reservation {}: nothing to provision", id);
            return Plan.SKIP;
        }
        Instant now = clock.instant();
        boolean buildable = cluster.state() == ClusterState.PENDING
                || cluster.state().isBuilding()
                || cluster.state().isServing();
        if (!cluster.open() || !buildable) {
            timeline.record(
                    id,
                    Timeline.PROVISION,
                    "SKIPPED",
                    cluster.state(),
                    attempt,
                    "Nothing to build: the cluster is " + cluster.state() + ".");
            return cluster.everBuilt() ? new Plan(Kind.CLEAN, null, cluster) : Plan.SKIP;
        }
        Reservation reservation = reservations.find(id).orElseThrow();
        ReservationStatus status = reservation.status(now);
        if (status == ReservationStatus.CANCELLED
                || status == ReservationStatus.FAILED
                || status == ReservationStatus.PREEMPTED) {
            timeline.record(
                    id,
                    Timeline.PROVISION,
                    "SKIPPED",
                    cluster.state(),
                    attempt,
                    "Nothing to build: the reservation is " + status + ".");
            schedule.teardown(id, now, "the reservation is " + status);
            return Plan.SKIP;
        }
        if (!now.isBefore(reservation.endsAt())) {
            failures.giveUpBuilding(
                    id,
                    "The window ended at " + reservation.endsAt() + " before the cluster was built",
                    attempt,
                    Timeline.PROVISION);
            return Plan.SKIP;
        }
        if (cluster.state().isServing()) {
            return new Plan(Kind.CONVERGE, reservation, cluster);
        }
        boolean resumed = cluster.state().isBuilding();
        transitions.buildStarted(cluster);
        timeline.record(
                id,
                Timeline.PROVISION,
                "STARTED",
                ClusterState.CREATING,
                attempt,
                (resumed ? "Building again" : "Building") + " a " + cluster.orchestrator() + " cluster on "
                        + String.join(", ", reservation.nodes()) + " (" + step.why() + ").");
        return new Plan(Kind.BUILD, reservation, cluster);
    }

    /**
     * CREATING: the driver builds the cluster (or finds it built by an earlier attempt) on the reservation's nodes
     * that are free now. A node another reservation or cluster still has (a preempted one's, during its notice) is
     * waited for: the cluster is built and checked on the others meanwhile, and the node joins when it is free, so
     * that only it is left to add and check then. The cluster is handed over once it has every node.
     */
    private void build(Reservation reservation, Cluster before, int attempt) {
        UUID id = reservation.id();
        ClusterDriver driver = drivers.forPool(reservation.pool());
        List<String> outOfService = reservations.nodesOutOfService(id);
        if (!outOfService.isEmpty()) {
            failures.giveUpBuilding(
                    id,
                    "Reserved nodes are out of service: " + String.join("; ", outOfService),
                    attempt,
                    Timeline.PROVISION);
            return;
        }
        List<String> held = nodesStillHeld(reservation);
        List<String> free = reservation.nodes().stream()
                .filter(node -> !held.contains(node))
                .toList();
        if (free.isEmpty()) {
            throw NodesUnavailableException.heldByAnother(held, "still held by another cluster");
        }
        ClusterBlueprint whole =
                ClusterBlueprints.of(reservation, properties, logins.of(reservation.tenant(), reservation.project()));
        ClusterBlueprint spec = held.isEmpty() ? whole : whole.onNodes(free);

        ProvisionedCluster built = converged(driver, spec, driver.provision(spec));
        Endpoints endpoints = Endpoints.of(built.access());
        List<NodeHealth> created = built.nodes().stream()
                .map(n -> new NodeHealth(n, null, "NOT_CHECKED", null))
                .toList();
        Overtaken overtaken = advance(
                id,
                ClusterState.CREATING,
                transitions::built,
                attempt,
                "Created on " + String.join(", ", built.nodes()) + "; reach it at " + describe(endpoints) + "."
                        + volumes.created(id, built.volumes()),
                endpoints,
                created,
                built.steps().stream().map(BuildStep::line).toList());
        List<NodeHealth> passedBefore =
                before.nodes().stream().filter(n -> "PASSED".equals(n.health())).toList();
        unlessOvertaken(
                overtaken,
                spec.ref(),
                reservation.pool(),
                attempt,
                () -> verify(reservation, spec, driver, built, endpoints, attempt, passedBefore, held));
    }

    /**
     * A cluster an earlier attempt built on fewer nodes (some were still held then, or one was replaced since) is
     * brought to exactly the blueprint's nodes: a driver may keep the nodes it had on a repeated provision.
     */
    private static ProvisionedCluster converged(ClusterDriver driver, ClusterBlueprint spec, ProvisionedCluster built) {
        List<String> joining = spec.nodes().stream()
                .filter(node -> !built.nodes().contains(node))
                .toList();
        List<String> leaving = built.nodes().stream()
                .filter(node -> !spec.nodes().contains(node))
                .toList();
        if (!joining.isEmpty()) {
            driver.addNodes(spec.ref(), joining);
        }
        if (!leaving.isEmpty()) {
            driver.removeNodes(spec.ref(), leaving);
        }
        return joining.isEmpty() && leaving.isEmpty() ? built : built.onNodes(spec.nodes());
    }

    /**
     * The reservation's nodes that another reservation or cluster still has: a cluster built a lead time before
     * its window must not take a node the one before still has. The node is another reservation's until that
     * allocation ends (and its cluster's until its teardown removed it), whatever the driver would allow (a driver
     * that checks nothing, two windows back to back).
     */
    private List<String> nodesStillHeld(Reservation reservation) {
        Instant now = clock.instant();
        Set<String> held = new TreeSet<>(clusters.inOtherClusters(reservation.id(), reservation.nodes()));
        // another reservation's holding that has begun and runs on: its cluster has the node, or will at once
        reservations.heldBefore(reservation.id(), now).stream()
                .filter(h -> !h.from().isAfter(now) && reservation.nodes().contains(h.node()))
                .forEach(h -> held.add(h.node()));
        return List.copyOf(held);
    }

    /** INSTALLING_DRIVERS: the driver finds every part of the cluster, with the CUDA driver chosen at booking. */
    private void verify(
            Reservation reservation,
            ClusterBlueprint spec,
            ClusterDriver driver,
            ProvisionedCluster built,
            Endpoints endpoints,
            int attempt,
            List<NodeHealth> passedBefore,
            List<String> awaited) {
        UUID id = reservation.id();
        ClusterStatus status = driver.status(spec.ref());
        if (status.phase() != ClusterStatus.Phase.READY) {
            throw new DriverFailedException(
                    "The driver finds the cluster " + status.phase()
                            + (status.missing().isEmpty() ? "" : ", missing " + String.join(", ", status.missing())),
                    true);
        }
        List<NodeHealth> nodes = built.nodes().stream()
                .map(n -> new NodeHealth(n, status.nodeStates().get(n), "NOT_CHECKED", null))
                .toList();
        // Only what the driver's status read back: what was built is listed, step by step, at CREATING.
        Overtaken overtaken = advance(
                id,
                ClusterState.INSTALLING_DRIVERS,
                transitions::verified,
                attempt,
                "The driver reads every part it built back from the " + spec.orchestrator() + " cluster."
                        + SharedMemoryNote.of(spec, built.access()),
                endpoints,
                nodes,
                List.of());
        unlessOvertaken(overtaken, spec.ref(), reservation.pool(), attempt, () -> {
            List<String> passed = hostnames(passedBefore);
            List<NodeChecks.Outcome> outcomes = acceptance(
                    driver,
                    reservation,
                    spec,
                    nodes.stream().filter(n -> !passed.contains(n.hostname())).toList());
            List<NodeHealth> checked = new ArrayList<>();
            List<NodeChecks.Outcome> failed = new ArrayList<>();
            for (NodeHealth node : nodes) {
                NodeHealth earlier = passedBefore.stream()
                        .filter(n -> n.hostname().equals(node.hostname()))
                        .findFirst()
                        .orElse(null);
                if (earlier != null) {
                    // checked by this build before it waited for the rest: it has been in this cluster since
                    checked.add(new NodeHealth(node.hostname(), node.state(), "PASSED", earlier.detail()));
                    continue;
                }
                NodeChecks.Outcome outcome = outcomes.stream()
                        .filter(o -> o.node().equals(node.hostname()))
                        .findFirst()
                        .orElse(null);
                if (outcome == null) {
                    checked.add(new NodeHealth(
                            node.hostname(),
                            node.state(),
                            "NOT_CHECKED",
                            "This pool's driver runs no acceptance test before handover"));
                    continue;
                }
                if (!outcome.passed()) {
                    outcome = replace(driver, reservation, spec, outcome, attempt);
                }
                checked.add(new NodeHealth(
                        outcome.node(),
                        outcome.node().equals(node.hostname()) ? node.state() : null,
                        outcome.passed() ? "PASSED" : "FAILED",
                        outcome.detail()));
                if (!outcome.passed()) {
                    failed.add(outcome);
                }
            }
            if (!awaited.isEmpty()) {
                waitForTheRest(reservation, endpoints, checked, awaited, attempt);
                return;
            }
            String problem = failed.isEmpty() ? acrossNodes(driver, reservation, spec, checked, failed, attempt) : null;
            Overtaken handedOver = handOver(
                    reservation, spec, endpoints, checked, driver.supportsHealthChecks(), failed, problem, attempt);
            unlessOvertaken(handedOver, spec.ref(), reservation.pool(), attempt, () -> {});
        });
    }

    /**
     * Built and checked on the nodes that were free: the cluster keeps what it has (its nodes and their checks, stored
     * for the next attempt) and waits for the rest, which the step adds and checks as soon as they are free. The wait
     * itself is {@link #waitFor}'s, as for a build that could start on no node.
     */
    private void waitForTheRest(
            Reservation reservation, Endpoints endpoints, List<NodeHealth> checked, List<String> awaited, int attempt) {
        UUID id = reservation.id();
        Overtaken overtaken = transactions.execute(status -> {
            Cluster cluster = clusters.findForUpdate(id).orElseThrow();
            if (cluster.state() != ClusterState.RUNNING_ACCEPTANCE_TESTS || !cluster.open()) {
                return overtaken(cluster, attempt);
            }
            clusters.built(id, endpoints, checked);
            timeline.record(
                    id,
                    Timeline.PROVISION,
                    "PROGRESSED",
                    cluster.state(),
                    attempt,
                    "Built and checked on "
                            + String.join(", ", hostnames(checked)) + ", " + checked.size() + " of the "
                            + reservation.nodes().size() + " nodes booked; " + String.join(", ", awaited)
                            + (awaited.size() == 1 ? " joins" : " join") + " as soon as another cluster lets go of "
                            + (awaited.size() == 1 ? "it" : "them")
                            + ", and the cluster is handed over with every node.");
            return Overtaken.NO;
        });
        unlessOvertaken(overtaken, new ClusterRef(id, reservation.tenant()), reservation.pool(), attempt, () -> {
            throw NodesUnavailableException.heldByAnother(awaited, "still held by another cluster");
        });
    }

    /**
     * A node failed acceptance: booking swaps it for a free node of the pool (for the rest of the window), the
     * driver moves the cluster onto that node, and the node is checked in turn. Up to
     * {@link #REPLACEMENTS_PER_NODE} nodes are tried; the last outcome is returned (failed when none could be had).
     */
    private NodeChecks.Outcome replace(
            ClusterDriver driver,
            Reservation reservation,
            ClusterBlueprint spec,
            NodeChecks.Outcome failure,
            int attempt) {
        List<String> avoid = new ArrayList<>();
        NodeChecks.Outcome current = failure;
        for (int i = 0; i < REPLACEMENTS_PER_NODE && !current.passed(); i++) {
            avoid.add(current.node());
            String bad = current.node();
            String why = current.detail();
            Optional<String> replacement = reservations.replaceNode(reservation.id(), bad, avoid);
            if (replacement.isEmpty()) {
                record(
                        reservation.id(),
                        attempt,
                        bad + " failed acceptance (" + why + "); no healthy free node can replace it.");
                return current;
            }
            String node = replacement.get();
            driver.addNodes(spec.ref(), List.of(node));
            driver.removeNodes(spec.ref(), List.of(bad));
            record(
                    reservation.id(),
                    attempt,
                    bad + " failed acceptance (" + why + "): replaced by " + node + " before handover.");
            // the node left this cluster, not the fleet: it is rebooted or quarantined like any failed node
            Verdict.Fault fault = current.verdict().fault();
            clusters.find(reservation.id()).ifPresent(cluster -> remediation.swappedOut(cluster, bad, fault, why));
            current = nodeChecks.accept(
                    driver, targetOf(reservation, spec, spec.nodes().size()), node);
        }
        return current;
    }

    private static final int REPLACEMENTS_PER_NODE = 2;

    /**
     * After every node passed: the all-reduce across all nodes, when configured. Nodes it blames are replaced (in
     * {@code checked}, or added to {@code failed}) and it runs once more; returns why the cluster is degraded when
     * no node is to blame, else null.
     */
    private @Nullable String acrossNodes(
            ClusterDriver driver,
            Reservation reservation,
            ClusterBlueprint spec,
            List<NodeHealth> checked,
            List<NodeChecks.Outcome> failed,
            int attempt) {
        NodeChecks.Target target = targetOf(reservation, spec, checked.size());
        ClusterAllReduce.Result result =
                allReduce.run(driver, target, hostnames(checked)).orElse(null);
        if (result == null) {
            return null;
        }
        record(
                reservation.id(),
                attempt,
                result.acrossNodes().detail() + " across "
                        + result.acrossNodes().node() + ".");
        for (NodeChecks.Outcome blamed : result.blamed()) {
            NodeChecks.Outcome outcome = replace(driver, reservation, spec, blamed, attempt);
            checked.replaceAll(n -> !n.hostname().equals(blamed.node())
                    ? n
                    : new NodeHealth(
                            outcome.node(),
                            outcome.node().equals(n.hostname()) ? n.state() : null,
                            outcome.passed() ? "PASSED" : "FAILED",
                            outcome.detail()));
            if (!outcome.passed()) {
                failed.add(outcome);
            }
        }
        if (!result.blamed().isEmpty() && failed.isEmpty()) {
            result = allReduce.again(driver, target, hostnames(checked)).orElse(result);
            record(
                    reservation.id(),
                    attempt,
                    result.acrossNodes().detail() + " across "
                            + result.acrossNodes().node() + " (again, after the replacement).");
        }
        return result.problem();
    }

    private static List<String> hostnames(List<NodeHealth> nodes) {
        return nodes.stream().map(NodeHealth::hostname).toList();
    }

    private void record(UUID id, int attempt, String detail) {
        transactions.executeWithoutResult(status -> {
            Cluster cluster = clusters.findForUpdate(id).orElseThrow();
            timeline.record(id, Timeline.PROVISION, "PROGRESSED", cluster.state(), attempt, detail);
        });
    }

    private static NodeChecks.Target targetOf(Reservation reservation, ClusterBlueprint spec, int nodes) {
        return new NodeChecks.Target(
                spec.ref(),
                reservation.gpuType(),
                reservation.gpus() / Math.max(reservation.nodes().size(), 1),
                nodes);
    }

    /** Runs the acceptance checks on every node, when the driver runs checks. */
    private List<NodeChecks.Outcome> acceptance(
            ClusterDriver driver, Reservation reservation, ClusterBlueprint spec, List<NodeHealth> nodes) {
        if (!driver.supportsHealthChecks()) {
            return List.of();
        }
        NodeChecks.Target target = targetOf(reservation, spec, nodes.size());
        List<NodeChecks.Outcome> outcomes = new ArrayList<>();
        for (NodeHealth node : nodes) {
            outcomes.add(nodeChecks.accept(driver, target, node.hostname()));
        }
        return outcomes;
    }

    /** What happened to the cluster while this step talked to the driver. */
    private enum Overtaken {

        /** Nothing: the step goes on. */
        NO,
        /** A teardown began: what this step built must go. */
        BY_TEARDOWN,
        /** Another run of the step is ahead (it was run twice): leave the cluster to it. */
        BY_TWIN
    }

    /** Moves to the next state unless another step overtook this one; records the progress. */
    private Overtaken advance(
            UUID id,
            ClusterState from,
            UnaryOperator<Cluster> next,
            int attempt,
            String detail,
            Endpoints endpoints,
            List<NodeHealth> nodes,
            List<String> done) {
        return transactions.execute(status -> {
            Cluster cluster = clusters.findForUpdate(id).orElseThrow();
            if (cluster.state() != from || !cluster.open()) {
                return overtaken(cluster, attempt);
            }
            Cluster moved = next.apply(cluster);
            clusters.built(id, endpoints, nodes);
            timeline.record(id, Timeline.PROVISION, "PROGRESSED", moved.state(), attempt, detail);
            done.forEach(line -> timeline.record(id, Timeline.PROVISION, "PROGRESSED", moved.state(), attempt, line));
            return Overtaken.NO;
        });
    }

    private Overtaken overtaken(Cluster cluster, int attempt) {
        if (cluster.open() && (cluster.state().isBuilding() || cluster.state().isServing())) {
            timeline.record(
                    cluster.reservationId(),
                    Timeline.PROVISION,
                    "SKIPPED",
                    cluster.state(),
                    attempt,
                    "Another run of this step is ahead (the cluster is " + cluster.state() + "): this one stops.");
            return Overtaken.BY_TWIN;
        }
        return Overtaken.BY_TEARDOWN;
    }

    private void unlessOvertaken(Overtaken overtaken, ClusterRef ref, String pool, int attempt, Runnable next) {
        switch (overtaken) {
            case NO -> next.run();
            case BY_TEARDOWN -> removeWhatWasBuilt(ref, pool, attempt);
            case BY_TWIN -> {}
        }
    }

    /**
     * Hands the cluster over: {@code READY}, the reservation {@code ACTIVE} and {@link ClusterReady} commit together.
     * False when the reservation was cancelled or the cluster torn down meanwhile.
     */
    private Overtaken handOver(
            Reservation booked,
            ClusterBlueprint spec,
            Endpoints endpoints,
            List<NodeHealth> nodes,
            boolean checked,
            List<NodeChecks.Outcome> failed,
            @Nullable String problem,
            int attempt) {
        UUID id = booked.id();
        return transactions.execute(status -> {
            Instant now = clock.instant();
            Cluster cluster = clusters.findForUpdate(id).orElseThrow();
            Reservation reservation = reservations.find(id).orElseThrow();
            if (cluster.state() != ClusterState.RUNNING_ACCEPTANCE_TESTS || !cluster.open()) {
                return overtaken(cluster, attempt);
            }
            if (reservation.status(now) != ReservationStatus.PROVISIONING) {
                // Cancelled (or failed) while this step built: the teardown it scheduled will find the cluster
                // RUNNING_ACCEPTANCE_TESTS; removing what was built now spares it the wait.
                return Overtaken.BY_TEARDOWN;
            }
            String failedCheck = !failed.isEmpty()
                    ? failed.stream().map(NodeChecks.Outcome::node).collect(Collectors.joining(", "))
                            + " before handover"
                    : problem;
            transitions.handedOver(cluster, failedCheck, now);
            clusters.built(id, endpoints, nodes);
            if (failed.isEmpty() && problem != null) {
                timeline.record(
                        id,
                        Timeline.PROVISION,
                        "SUCCEEDED",
                        ClusterState.DEGRADED,
                        attempt,
                        "Every node passed " + acceptanceKinds() + ", but NCCL_ALL_REDUCE failed on " + problem
                                + ": handed over DEGRADED.");
            } else if (failed.isEmpty()) {
                timeline.record(
                        id,
                        Timeline.PROVISION,
                        "SUCCEEDED",
                        ClusterState.READY,
                        attempt,
                        (checked
                                        ? "Every node passed " + acceptanceKinds() + ". "
                                        : "No acceptance test on this pool. ")
                                + "Ready: handed over to the tenant.");
            } else {
                String why = failed.stream()
                        .map(o -> o.node() + " (" + o.detail() + ")")
                        .collect(Collectors.joining("; "));
                timeline.record(
                        id,
                        Timeline.PROVISION,
                        "SUCCEEDED",
                        ClusterState.DEGRADED,
                        attempt,
                        "Acceptance failed on " + why + " and no healthy node could replace it: handed over DEGRADED.");
                // the tenant is not charged for a failed node from handover until it passes or is replaced (billing)
                failed.forEach(o -> events.publishEvent(
                        new NodeDegraded(id, reservation.tenant(), o.node(), now, "acceptance failed: " + o.detail())));
            }
            events.publishEvent(new ClusterReady(
                    id,
                    reservation.tenant(),
                    reservation.project(),
                    reservation.pool(),
                    cluster.orchestrator(),
                    reservation.nodes(),
                    reservation.gpus(),
                    now,
                    reservation.endsAt()));
            if (!reservation.endsAt().equals(spec.endsAt())) {
                schedule.provision(id, now, "the window was extended while the cluster was built");
            }
            return Overtaken.NO;
        });
    }

    /** An extension (or a repeated step) of a cluster already handed over: the driver converges on the window. */
    private void converge(Reservation reservation, int attempt) {
        ClusterBlueprint spec =
                ClusterBlueprints.of(reservation, properties, logins.of(reservation.tenant(), reservation.project()));
        ProvisionedCluster converged = drivers.forPool(reservation.pool()).provision(spec);
        Overtaken overtaken = transactions.execute(status -> {
            Cluster cluster = clusters.findForUpdate(reservation.id()).orElseThrow();
            if (!cluster.open() || !cluster.state().isServing()) {
                // Torn down while the driver converged: what the driver just (re)built must go.
                return Overtaken.BY_TEARDOWN;
            }
            ClusterState state = transitions.updated(cluster);
            timeline.record(
                    reservation.id(),
                    Timeline.PROVISION,
                    "SUCCEEDED",
                    state,
                    attempt,
                    "The cluster holds the window until " + reservation.endsAt() + "."
                            + converged.steps().stream()
                                    .map(step -> " " + step.line())
                                    .collect(Collectors.joining()));
            return Overtaken.NO;
        });
        unlessOvertaken(overtaken, spec.ref(), reservation.pool(), attempt, () -> {});
    }

    /**
     * This step built something after the reservation was cancelled or a teardown began (or even finished): it
     * removes it itself, so that nothing is left whichever finished first.
     */
    private void removeWhatWasBuilt(ClusterRef ref, String pool, int attempt) {
        drivers.forPool(pool).teardown(ref);
        transactions.executeWithoutResult(status -> {
            Cluster cluster = clusters.findForUpdate(ref.reservationId()).orElseThrow();
            timeline.record(
                    ref.reservationId(),
                    Timeline.PROVISION,
                    "SKIPPED",
                    cluster.state(),
                    attempt,
                    "The reservation was cancelled or its cluster torn down while this step built it: "
                            + "removed what the step had built.");
        });
    }

    private String acceptanceKinds() {
        return health.acceptance().stream().map(Enum::name).collect(Collectors.joining(", "));
    }

    static String describe(Endpoints endpoints) {
        if (endpoints.sshHost() != null) {
            return "ssh " + endpoints.sshHost() + ", sbatch -A " + endpoints.slurmAccount() + " -p "
                    + endpoints.slurmPartition() + " --reservation=" + endpoints.slurmReservation();
        }
        if (endpoints.apiServer() != null) {
            return endpoints.apiServer() + ", namespace " + endpoints.namespace() + " (kubeconfig from the API)";
        }
        return endpoints.other() == null ? "(no endpoint)" : endpoints.other();
    }
}
