package dev.allot.provisioning.checks;

import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.HealthCheckKind;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * The last acceptance check of a cluster of several nodes: one {@code NCCL_ALL_REDUCE} job across all of them,
 * judged by the GPU type's multi-node bus bandwidth. A multi-node failure names no node by itself, so each node
 * then runs the all-reduce alone (the single-node threshold): the nodes that fail alone are blamed, and are
 * replaced like any node failing acceptance. When every node passes alone, the fault lies between them (the
 * fabric, a switch, a cable): no node is blamed and the cluster is handed over {@code DEGRADED} saying so. A tenant
 * may also ask for it on demand ({@code health.HealthCheckRuns}), judged the same way.
 */
@Component
public class ClusterAllReduce {

    private final HealthProperties properties;

    private final NodeChecks nodeChecks;

    ClusterAllReduce(HealthProperties properties, NodeChecks nodeChecks) {
        this.properties = properties;
        this.nodeChecks = nodeChecks;
    }

    /**
     * @param acrossNodes the multi-node job's outcome
     * @param alone each node's outcome running the all-reduce alone (only after a multi-node failure, when blaming)
     * @param problem why the cluster is degraded when no node is to blame; null when it passed or a node is blamed
     */
    public record Result(
            NodeChecks.Outcome acrossNodes,
            List<NodeChecks.Outcome> alone,
            @Nullable String problem) {

        public boolean passed() {
            return acrossNodes.passed();
        }

        /** The nodes that failed the all-reduce alone, each with its outcome. */
        public List<NodeChecks.Outcome> blamed() {
            return alone.stream().filter(outcome -> !outcome.passed()).toList();
        }
    }

    /** At acceptance; empty when it is not to run: turned off, a single node, or a driver without multi-node jobs. */
    public Optional<Result> run(ClusterDriver driver, NodeChecks.Target target, List<String> nodes) {
        return properties.multiNodeAllReduce() ? onDemand(driver, target, nodes) : Optional.empty();
    }

    /** Runs it again after the blamed nodes were replaced: a failure now is the cluster's. */
    public Optional<Result> again(ClusterDriver driver, NodeChecks.Target target, List<String> nodes) {
        return properties.multiNodeAllReduce() ? measure(driver, target, nodes, false) : Optional.empty();
    }

    /** Asked for by the tenant, whatever the acceptance does; empty for a single node or a driver without it. */
    public Optional<Result> onDemand(ClusterDriver driver, NodeChecks.Target target, List<String> nodes) {
        return measure(driver, target, nodes, true);
    }

    private Optional<Result> measure(
            ClusterDriver driver, NodeChecks.Target target, List<String> nodes, boolean blame) {
        if (nodes.size() < 2 || !driver.supportsMultiNodeChecks()) {
            return Optional.empty();
        }
        NodeChecks.Outcome across = nodeChecks.acrossNodes(driver, target, nodes);
        if (across.passed()) {
            return Optional.of(new Result(across, List.of(), null));
        }
        List<NodeChecks.Outcome> alone = !blame
                ? List.of()
                : nodes.stream()
                        .map(node -> nodeChecks.run(driver, target, node, HealthCheckKind.NCCL_ALL_REDUCE, 1))
                        .toList();
        boolean blamed = alone.stream().anyMatch(outcome -> !outcome.passed());
        return Optional.of(new Result(across, alone, blamed ? null : problem(across, blame)));
    }

    private static String problem(NodeChecks.Outcome across, boolean blamedAlone) {
        return across.node() + " together (" + across.detail() + ")"
                + (blamedAlone
                        ? "; each node passed the all-reduce alone: the fault lies between them (network, switch, cabling)"
                        : " after replacing the nodes that failed it alone");
    }
}
