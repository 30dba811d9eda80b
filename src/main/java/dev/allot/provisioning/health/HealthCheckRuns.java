package dev.allot.provisioning.health;

import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.provisioning.NodeDegradationEnded;
import dev.allot.provisioning.checks.ClusterAllReduce;
import dev.allot.provisioning.checks.NodeChecks;
import dev.allot.provisioning.checks.Verdict;
import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterDriverException;
import dev.allot.provisioning.driver.ClusterDrivers;
import dev.allot.provisioning.lifecycle.Cluster;
import dev.allot.provisioning.lifecycle.ClusterRepository;
import dev.allot.provisioning.lifecycle.ClusterState;
import dev.allot.provisioning.lifecycle.ClusterTransitions;
import dev.allot.provisioning.lifecycle.NodeHealth;
import dev.allot.provisioning.lifecycle.Timeline;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs a queued health check on every node of the cluster. A node that fails makes a {@code READY} cluster
 * {@code DEGRADED} (it stays usable; remediation belongs to the health module); a check that passes on every node
 * makes a cluster degraded by an earlier check {@code READY} again. An all-reduce across all nodes
 * ({@link ClusterAllReduce}) that fails while each node passes it alone degrades the cluster without blaming a node.
 */
@Component
public class HealthCheckRuns {

    private final HealthCheckRepository store;

    private final ClusterRepository clusters;

    private final ClusterDrivers drivers;

    private final Timeline timeline;

    private final TransactionTemplate transactions;

    private final Clock clock;

    private final ReservationLifecycle reservations;

    private final NodeChecks nodeChecks;

    private final Remediation remediation;

    private final ApplicationEventPublisher events;

    private final ClusterAllReduce allReduce;

    private final ClusterTransitions transitions;

    HealthCheckRuns(
            HealthCheckRepository store,
            ClusterRepository clusters,
            ClusterDrivers drivers,
            Timeline timeline,
            TransactionTemplate transactions,
            Clock clock,
            ReservationLifecycle reservations,
            NodeChecks nodeChecks,
            Remediation remediation,
            ApplicationEventPublisher events,
            ClusterAllReduce allReduce,
            ClusterTransitions transitions) {
        this.transitions = transitions;
        this.allReduce = allReduce;
        this.events = events;
        this.remediation = remediation;
        this.reservations = reservations;
        this.nodeChecks = nodeChecks;
        this.store = store;
        this.clusters = clusters;
        this.drivers = drivers;
        this.timeline = timeline;
        this.transactions = transactions;
        this.clock = clock;
    }

    public void run(UUID checkId, UUID reservationId, int attempt) {
        HealthCheck check = store.find(reservationId, checkId).orElse(null);
        Cluster cluster = clusters.find(reservationId).orElse(null);
        if (check == null || cluster == null || check.finishedAt() != null) {
            return;
        }
        if (!cluster.open() || !cluster.state().isServing()) {
            giveUp(checkId, reservationId, "The cluster is " + cluster.state() + ": there is nothing to check");
            return;
        }
        Reservation reservation = reservations.find(reservationId).orElse(null);
        if (reservation == null) {
            giveUp(checkId, reservationId, "The reservation is gone");
            return;
        }
        store.running(checkId);
        ClusterDriver driver = drivers.forPool(cluster.pool());
        NodeChecks.Target target = new NodeChecks.Target(
                cluster.ref(),
                reservation.gpuType(),
                reservation.gpus() / Math.max(reservation.nodes().size(), 1),
                cluster.nodes().size());
        List<HealthCheck.NodeResult> results = new ArrayList<>();
        ClusterAllReduce.Result across = null;
        try {
            if (check.acrossNodes()) {
                across = allReduce
                        .onDemand(
                                driver,
                                target,
                                cluster.nodes().stream()
                                        .map(NodeHealth::hostname)
                                        .toList())
                        .orElse(null);
                if (across == null) {
                    giveUp(
                            checkId,
                            reservationId,
                            "An all-reduce across nodes needs two nodes or more, on a driver" + " that runs such jobs");
                    return;
                }
                results.addAll(nodeResults(across));
            } else {
                for (NodeHealth node : cluster.nodes()) {
                    results.add(nodeResult(
                            nodeChecks.run(driver, target, node.hostname(), check.kind(), check.levelOrDefault())));
                }
            }
        } catch (ClusterDriverException ex) {
            if (ex.retryable()) {
                throw ex;
            }
            giveUp(checkId, reservationId, ex.getMessage());
            return;
        }
        if (!record(check, results, across, attempt)) {
            return; // a twin run recorded it, and remediated
        }
        Cluster checked = clusters.find(reservationId).orElseThrow();
        for (HealthCheck.NodeResult result : results) {
            if (!result.passed() && result.fault() != null) {
                try {
                    remediation.remediate(
                            checked,
                            result.node(),
                            Verdict.Fault.valueOf(result.fault()),
                            check.kind() + ": " + result.summary(),
                            check.kind());
                } catch (RuntimeException ex) {
                    timeline.record(
                            reservationId,
                            Timeline.REMEDIATION,
                            "FAILED",
                            checked.state(),
                            attempt,
                            Remediation.shorten("Remediating " + result.node() + " failed: " + ex.getMessage(), 4000));
                }
            }
        }
    }

    private static HealthCheck.NodeResult nodeResult(NodeChecks.Outcome outcome) {
        return new HealthCheck.NodeResult(
                outcome.node(),
                outcome.passed(),
                outcome.verdict().summary(),
                outcome.verdict().fault().name(),
                outcome.output(),
                outcome.took());
    }

    /**
     * Each node's part in an all-reduce across nodes: when the job passed, every node took part in it; when it
     * failed, each node ran it alone, and that outcome is the node's.
     */
    private static List<HealthCheck.NodeResult> nodeResults(ClusterAllReduce.Result across) {
        if (!across.passed()) {
            return across.alone().stream().map(HealthCheckRuns::nodeResult).toList();
        }
        NodeChecks.Outcome job = across.acrossNodes();
        return List.of(job.node().split(", ")).stream()
                .map(node -> new HealthCheck.NodeResult(
                        node,
                        true,
                        "took part in the all-reduce across " + job.node() + ", which passed: "
                                + job.verdict().summary(),
                        Verdict.Fault.NONE.name(),
                        "",
                        job.took()))
                .toList();
    }

    private static HealthCheck.AcrossNodesResult acrossResult(NodeChecks.Outcome job) {
        return new HealthCheck.AcrossNodesResult(
                List.of(job.node().split(", ")), job.passed(), job.verdict().summary(), job.output(), job.took());
    }

    private boolean record(
            HealthCheck check,
            List<HealthCheck.NodeResult> results,
            ClusterAllReduce.@Nullable Result across,
            int attempt) {
        List<String> failed = results.stream()
                .filter(r -> !r.passed())
                .map(HealthCheck.NodeResult::node)
                .toList();
        // a multi-node failure no single node explains: the cluster's, not a node's
        String between = across == null ? null : across.problem();
        String detail = across != null
                ? acrossDetail(across)
                : failed.isEmpty()
                        ? check.kind() + " passed on every node"
                        : check.kind() + " failed on " + String.join(", ", failed);
        boolean passed = failed.isEmpty() && between == null;
        return Boolean.TRUE.equals(transactions.execute(status -> {
            Instant now = clock.instant();
            Cluster cluster = clusters.findForUpdate(check.reservationId()).orElseThrow();
            if (!store.finish(
                    check.id(),
                    passed ? HealthCheck.Status.PASSED : HealthCheck.Status.FAILED,
                    detail,
                    results,
                    across == null ? null : acrossResult(across.acrossNodes()),
                    now)) {
                return false;
            }
            Map<String, HealthCheck.NodeResult> byNode =
                    results.stream().collect(Collectors.toMap(HealthCheck.NodeResult::node, Function.identity()));
            // a node that passes is healthy again: billing ends its degraded span, if any (also one an exporter's
            // fault event opened, which left the node's health as it was)
            results.stream()
                    .filter(HealthCheck.NodeResult::passed)
                    .forEach(result -> events.publishEvent(new NodeDegradationEnded(
                            check.reservationId(), result.node(), now, check.kind() + " passed")));
            List<NodeHealth> nodes = cluster.nodes().stream()
                    .map(node -> {
                        HealthCheck.NodeResult result = byNode.get(node.hostname());
                        return result == null
                                ? node
                                : new NodeHealth(
                                        node.hostname(),
                                        node.state(),
                                        result.passed() ? "PASSED" : "FAILED",
                                        check.kind() + ": " + result.summary());
                    })
                    .toList();
            ClusterState state = transitions.judged(
                    cluster,
                    nodes,
                    passed ? null : between != null ? Remediation.shorten(between, 600) : String.join(", ", failed));
            timeline.record(
                    check.reservationId(),
                    Timeline.HEALTH_CHECK,
                    passed ? "SUCCEEDED" : "FAILED",
                    state,
                    attempt,
                    Remediation.shorten(detail + " (check " + check.id() + ").", 4000));
            return true;
        }));
    }

    /** What an all-reduce across nodes found, in words. */
    private static String acrossDetail(ClusterAllReduce.Result across) {
        NodeChecks.Outcome job = across.acrossNodes();
        if (across.passed()) {
            return job.kind() + " across " + job.node() + " passed: "
                    + job.verdict().summary();
        }
        List<String> blamed =
                across.blamed().stream().map(NodeChecks.Outcome::node).toList();
        return job.kind() + " across " + job.node() + " failed ("
                + job.verdict().summary() + "); "
                + (blamed.isEmpty()
                        ? "each node passed it alone: the fault lies between them (network, switch, cabling)"
                        : "alone it failed on " + String.join(", ", blamed));
    }

    /** The check could not run: it ends {@code ERROR} with the reason; the cluster is left as it is. */
    public void giveUp(UUID checkId, UUID reservationId, String reason) {
        transactions.executeWithoutResult(status -> {
            if (store.finish(checkId, HealthCheck.Status.ERROR, reason, List.of(), null, clock.instant())) {
                clusters.find(reservationId)
                        .ifPresent(cluster -> timeline.record(
                                reservationId,
                                Timeline.HEALTH_CHECK,
                                "FAILED",
                                cluster.state(),
                                null,
                                "Check " + checkId + " could not run: " + reason));
            }
        });
    }
}
