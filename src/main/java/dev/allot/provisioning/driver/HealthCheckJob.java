package dev.allot.provisioning.driver;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One check to run on one node of a cluster, as a job of the infrastructure pinned to that node.
 *
 * @param command the program and its arguments, run on the node (configured per kind in
 * {@code allot.provisioning.health.commands})
 * @param gpus how many GPUs of the node the job takes (all of them)
 * @param timeout how long the job may run; a job still running then is cancelled and reported as timed out
 */
public record HealthCheckJob(
        ClusterRef ref, String node, HealthCheckKind kind, List<String> command, int gpus, Duration timeout) {

    public HealthCheckJob {
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(node, "node");
        command = List.copyOf(command);
        if (command.isEmpty()) {
            throw new IllegalArgumentException("a health check needs a command");
        }
        if (gpus < 0 || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("a health check needs a positive timeout and no negative GPU count");
        }
    }

    /** The job's name on the infrastructure: {@code allot-check-<reservation>-<node>}, found again to cancel it. */
    public String jobName() {
        return "allot-check-" + ref.reservationId().toString().substring(0, 8) + "-" + node;
    }
}
