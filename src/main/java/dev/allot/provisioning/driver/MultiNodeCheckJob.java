package dev.allot.provisioning.driver;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One check run as a single job across several nodes of a cluster, one task per node (nccl-tests'
 * {@code all_reduce_perf} built with MPI: the ranks of all nodes reduce together, and the first prints the table).
 *
 * @param nodes the nodes the job spans, in the cluster's order
 * @param gpusPerNode how many GPUs of each node the job takes (all of them)
 */
public record MultiNodeCheckJob(
        ClusterRef ref,
        List<String> nodes,
        HealthCheckKind kind,
        List<String> command,
        int gpusPerNode,
        Duration timeout) {

    public MultiNodeCheckJob {
        Objects.requireNonNull(ref, "ref");
        nodes = List.copyOf(nodes);
        command = List.copyOf(command);
        if (nodes.size() < 2 || command.isEmpty()) {
            throw new IllegalArgumentException("a multi-node check needs two nodes or more and a command");
        }
        if (gpusPerNode < 0 || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("a health check needs a positive timeout and no negative GPU count");
        }
    }

    /** The job's name on the infrastructure, found again to cancel it. */
    public String jobName() {
        return "allot-check-" + ref.reservationId().toString().substring(0, 8) + "-" + nodes.size() + "-nodes";
    }
}
