package dev.allot.provisioning.lifecycle;

import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.provisioning.checks.ClusterAllReduce;
import dev.allot.provisioning.checks.NodeChecks;
import dev.allot.provisioning.checks.Verdict;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterDriver;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * RUNNING_ACCEPTANCE_TESTS: the acceptance checks on a cluster's nodes before handover, when its driver runs checks.
 * A node that fails is swapped for a free node of the pool and that one checked in turn; after every node passed,
 * the all-reduce across all nodes, when configured.
 */
@Component
class Acceptance {

    private static final int REPLACEMENTS_PER_NODE = 2;

    /** The cluster's nodes with their checks, and the outcomes of those that failed and could not be replaced. */
    record Checked(List<NodeHealth> nodes, List<NodeChecks.Outcome> failed) {}

    private final ClusterRepository clusters;

    private final ReservationLifecycle reservations;

    private final NodeChecks nodeChecks;

    private final ClusterAllReduce allReduce;

    private final SwappedOutNodes remediation;

    private final Timeline timeline;

    private final TransactionTemplate transactions;

    Acceptance(
            ClusterRepository clusters,
            ReservationLifecycle reservations,
            NodeChecks nodeChecks,
            ClusterAllReduce allReduce,
            SwappedOutNodes remediation,
            Timeline timeline,
            TransactionTemplate transactions) {
        this.clusters = clusters;
        this.reservations = reservations;
        this.nodeChecks = nodeChecks;
        this.allReduce = allReduce;
        this.remediation = remediation;
        this.timeline = timeline;
        this.transactions = transactions;
    }

    /**
     * Checks the nodes that have not passed in this build before ({@code passedBefore}: checked before it waited for
     * the rest), replacing those that fail.
     */
    Checked check(
            ClusterDriver driver,
            Reservation reservation,
            ClusterBlueprint spec,
            List<NodeHealth> nodes,
            List<NodeHealth> passedBefore,
            int attempt) {
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
        return new Checked(checked, failed);
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

    /**
     * After every node passed: the all-reduce across all nodes, when configured. Nodes it blames are replaced (in
     * {@code checked}, or added to {@code failed}) and it runs once more; returns why the cluster is degraded when
     * no node is to blame, else null.
     */
    @Nullable
    String acrossNodes(
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

    static List<String> hostnames(List<NodeHealth> nodes) {
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
}
