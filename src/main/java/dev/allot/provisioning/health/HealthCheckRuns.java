package dev.allot.provisioning.health;

import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.provisioning.checks.ClusterAllReduce;
import dev.allot.provisioning.checks.NodeChecks;
import dev.allot.provisioning.checks.Verdict;
import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterDriverException;
import dev.allot.provisioning.driver.ClusterDrivers;
import dev.allot.provisioning.lifecycle.Cluster;
import dev.allot.provisioning.lifecycle.ClusterRepository;
import dev.allot.provisioning.lifecycle.NodeHealth;
import dev.allot.provisioning.lifecycle.Timeline;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.stereotype.Component;

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

    private final ReservationLifecycle reservations;

    private final NodeChecks nodeChecks;

    private final Remediation remediation;

    private final ClusterAllReduce allReduce;

    private final HealthCheckRecord outcome;

    HealthCheckRuns(
            HealthCheckRepository store,
            ClusterRepository clusters,
            ClusterDrivers drivers,
            Timeline timeline,
            ReservationLifecycle reservations,
            NodeChecks nodeChecks,
            Remediation remediation,
            ClusterAllReduce allReduce,
            HealthCheckRecord outcome) {
        this.store = store;
        this.clusters = clusters;
        this.drivers = drivers;
        this.timeline = timeline;
        this.reservations = reservations;
        this.nodeChecks = nodeChecks;
        this.remediation = remediation;
        this.allReduce = allReduce;
        this.outcome = outcome;
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
        if (!outcome.record(check, results, across, attempt)) {
            return; // a twin run recorded it, and remediated
        }
        remediate(check, results, attempt);
    }

    /** Each node that failed with a fault is remediated; a remediation that fails is on the timeline. */
    private void remediate(HealthCheck check, List<HealthCheck.NodeResult> results, int attempt) {
        UUID reservationId = check.reservationId();
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

    /** The check could not run: it ends {@code ERROR} with the reason; the cluster is left as it is. */
    public void giveUp(UUID checkId, UUID reservationId, String reason) {
        outcome.giveUp(checkId, reservationId, reason);
    }
}
