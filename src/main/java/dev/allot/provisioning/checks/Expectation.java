package dev.allot.provisioning.checks;

/**
 * What a node must show: how many GPUs it has, and the thresholds of its GPU type.
 *
 * @param nodes how many nodes the check spans (an all-reduce over several nodes is judged by the multi-node
 * threshold)
 */
public record Expectation(String gpuType, int gpus, int nodes, HealthThresholds.GpuType thresholds) {

    public Expectation {
        if (gpus < 1 || nodes < 1) {
            throw new IllegalArgumentException("a check expects at least one GPU on at least one node");
        }
    }
}
