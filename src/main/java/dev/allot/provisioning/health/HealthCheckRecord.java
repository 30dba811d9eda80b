package dev.allot.provisioning.health;

import dev.allot.provisioning.NodeDegradationEnded;
import dev.allot.provisioning.checks.ClusterAllReduce;
import dev.allot.provisioning.checks.NodeChecks;
import dev.allot.provisioning.lifecycle.Cluster;
import dev.allot.provisioning.lifecycle.ClusterRepository;
import dev.allot.provisioning.lifecycle.ClusterState;
import dev.allot.provisioning.lifecycle.ClusterTransitions;
import dev.allot.provisioning.lifecycle.NodeHealth;
import dev.allot.provisioning.lifecycle.Timeline;
import java.time.Clock;
import java.time.Instant;
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
 * How a health check ends, recorded in one transaction under the cluster's lock: the check's result, each node's
 * health (a node that passes ends its degraded span, {@link NodeDegradationEnded}), the cluster's state judged on
 * them, and the timeline; or {@code ERROR} when the check could not run.
 */
@Component
class HealthCheckRecord {

    private final HealthCheckRepository store;

    private final ClusterRepository clusters;

    private final ClusterTransitions transitions;

    private final Timeline timeline;

    private final ApplicationEventPublisher events;

    private final TransactionTemplate transactions;

    private final Clock clock;

    HealthCheckRecord(
            HealthCheckRepository store,
            ClusterRepository clusters,
            ClusterTransitions transitions,
            Timeline timeline,
            ApplicationEventPublisher events,
            TransactionTemplate transactions,
            Clock clock) {
        this.store = store;
        this.clusters = clusters;
        this.transitions = transitions;
        this.timeline = timeline;
        this.events = events;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** Records the check's outcome; false when a twin run recorded it first. */
    boolean record(
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
            List<NodeHealth> nodes = judgedNodes(check, cluster, byNode);
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

    /** The cluster's nodes with the health the check found on each. */
    private static List<NodeHealth> judgedNodes(
            HealthCheck check, Cluster cluster, Map<String, HealthCheck.NodeResult> byNode) {
        return cluster.nodes().stream()
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
    }

    private static HealthCheck.AcrossNodesResult acrossResult(NodeChecks.Outcome job) {
        return new HealthCheck.AcrossNodesResult(
                List.of(job.node().split(", ")), job.passed(), job.verdict().summary(), job.output(), job.took());
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
    void giveUp(UUID checkId, UUID reservationId, String reason) {
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
