package dev.allot.provisioning.driver.slurm;

import dev.allot.provisioning.driver.ClusterDriverException;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.NodesUnavailableException;
import java.util.List;
import java.util.Locale;

/** Turns Slurm's error messages into the port's typed failures. */
final class SlurmErrors {

    private static final List<String> NODES_REFUSED = List.of(
            "overlaps with another reservation",
            "invalid node name specified",
            "requested nodes are busy",
            "nodes are busy",
            "node(s) busy");

    /**
     * Passing conditions: the controller is unreachable, or jobs (cancelled, still ending) hold what a teardown
     * deletes.
     */
    private static final List<String> TRANSIENT = List.of(
            "unable to contact slurm controller",
            "socket timed out",
            "connection refused",
            "slurm_persist_conn_open",
            "communication connection failure",
            "zero bytes were transmitted",
            "is in use",
            "job(s) active");

    private final String pool;

    SlurmErrors(String pool) {
        this.pool = pool;
    }

    static boolean notFound(SlurmCommands.Result result) {
        return result.message().toLowerCase(Locale.ROOT).contains("not found");
    }

    ClusterDriverException failed(String what, SlurmCommands.Result result, List<String> nodes) {
        String message = result.message();
        String lower = message.toLowerCase(Locale.ROOT);
        if (!nodes.isEmpty() && NODES_REFUSED.stream().anyMatch(lower::contains)) {
            // busy or overlapping: another reservation's cluster still holds them, on its way out
            return lower.contains("invalid node name")
                    ? new NodesUnavailableException(nodes, "Slurm refused: " + message)
                    : NodesUnavailableException.heldByAnother(nodes, "Slurm refused: " + message);
        }
        boolean retryable = TRANSIENT.stream().anyMatch(lower::contains);
        return new DriverFailedException(
                what + " on pool " + pool + " failed (exit " + result.exitCode() + "): " + message, retryable);
    }
}
