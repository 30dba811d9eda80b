package dev.allot.provisioning.health;

import java.util.List;
import java.util.Optional;

import dev.allot.provisioning.driver.ClusterDriver;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * The last acceptance check of a cluster of several nodes: one {@code NCCL_ALL_REDUCE} job across all of them,
 * judged by the GPU type's multi-node bus bandwidth. A multi-node failure names no node by itself, so each node
 * then runs the all-reduce alone (the single-node threshold): the nodes that fail alone are blamed, and are
 * replaced like any node failing acceptance. When every node passes alone, the fault lies between them (the
 * fabric, a switch, a cable): no node is blamed and the cluster is handed over {@code DEGRADED} saying so.
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
	 * @param blamed the nodes that failed the all-reduce alone, each with its outcome
	 * @param problem why the cluster is degraded when no node is to blame; null when it passed or a node is blamed
	 */
	public record Result(NodeChecks.Outcome acrossNodes, List<NodeChecks.Outcome> blamed, @Nullable String problem) {

		public boolean passed() {
			return acrossNodes.passed();
		}

	}

	/** Empty when it is not to run: turned off, a single node, or a driver without multi-node jobs. */
	public Optional<Result> run(ClusterDriver driver, NodeChecks.Target target, List<String> nodes) {
		return run(driver, target, nodes, true);
	}

	/** Runs it again after the blamed nodes were replaced: a failure now is the cluster's. */
	public Optional<Result> again(ClusterDriver driver, NodeChecks.Target target, List<String> nodes) {
		return run(driver, target, nodes, false);
	}

	private Optional<Result> run(ClusterDriver driver, NodeChecks.Target target, List<String> nodes, boolean blame) {
		if (!properties.multiNodeAllReduce() || nodes.size() < 2 || !driver.supportsMultiNodeChecks()) {
			return Optional.empty();
		}
		NodeChecks.Outcome across = nodeChecks.acrossNodes(driver, target, nodes);
		if (across.passed()) {
			return Optional.of(new Result(across, List.of(), null));
		}
		List<NodeChecks.Outcome> blamed = !blame ? List.of() : nodes.stream()
			.map(node -> nodeChecks.run(driver, target, node, HealthCheckKind.NCCL_ALL_REDUCE, 1))
			.filter(outcome -> !outcome.passed())
			.toList();
		return Optional.of(new Result(across, blamed, blamed.isEmpty() ? problem(across, blame) : null));
	}

	private static String problem(NodeChecks.Outcome across, boolean blamedAlone) {
		return across.node() + " together (" + across.detail() + ")" + (blamedAlone
				? "; each node passed the all-reduce alone: the fault lies between them (network, switch, cabling)"
				: " after replacing the nodes that failed it alone");
	}

}
