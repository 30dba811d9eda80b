package dev.allot.provisioning.driver;

import java.util.List;
import java.util.Map;

/**
 * What the driver finds on the infrastructure for a cluster.
 *
 * @param nodes the nodes dedicated to the cluster now
 * @param nodeStates the orchestrator's view of each node (e.g. Slurm's {@code IDLE}, Kubernetes' {@code Ready})
 * @param missing parts that should exist but do not (e.g. {@code partition}, {@code ResourceQuota/gpu})
 */
public record ClusterStatus(
        ClusterRef ref, Phase phase, List<String> nodes, Map<String, String> nodeStates, List<String> missing) {

    public ClusterStatus {
        nodes = List.copyOf(nodes);
        nodeStates = Map.copyOf(nodeStates);
        missing = List.copyOf(missing);
    }

    public static ClusterStatus absent(ClusterRef ref) {
        return new ClusterStatus(ref, Phase.ABSENT, List.of(), Map.of(), List.of());
    }

    public enum Phase {

        /** Nothing of the cluster exists. */
        ABSENT,
        /** Some parts exist, others are missing: an interrupted provision or teardown. */
        INCOMPLETE,
        /** Every part exists. */
        READY,
        /** The infrastructure is still removing it. */
        DELETING
    }
}
