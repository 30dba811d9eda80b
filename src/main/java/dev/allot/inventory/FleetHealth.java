package dev.allot.inventory;

import java.util.List;
import java.util.Map;

/**
 * The fleet's nodes now, as a platform admin watches them: how many in each state (retired ones left out), the GPUs
 * of those nodes, and the nodes out of service, the most recently out first (what just broke), each with why.
 *
 * @param outOfServiceNodes how many nodes are out of service (quarantined, draining or in repair); {@code outOfService}
 * lists the latest of them
 */
public record FleetHealth(
        Map<NodeState, Integer> nodesByState, int gpus, int outOfServiceNodes, List<Node> outOfService) {

    public FleetHealth {
        nodesByState = Map.copyOf(nodesByState);
        outOfService = List.copyOf(outOfService);
    }

    public int nodes() {
        return nodesByState.values().stream().mapToInt(Integer::intValue).sum();
    }

    public int nodesIn(NodeState state) {
        return nodesByState.getOrDefault(state, 0);
    }
}
