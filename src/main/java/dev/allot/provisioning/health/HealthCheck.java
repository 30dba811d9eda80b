package dev.allot.provisioning.health;

import dev.allot.provisioning.driver.HealthCheckKind;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An on-demand check of a ready cluster's nodes, asked for by its tenant and run by the driver.
 *
 * @param level the DCGM diagnostic level (1 to 3) of a {@code DCGM_DIAG}
 * @param acrossNodes an {@code NCCL_ALL_REDUCE} run as one job across all the cluster's nodes (else on each node
 * alone)
 * @param detail a summary, or why the check could not run
 * @param results one per node, once the check has run
 * @param acrossNodesResult the job across all nodes, once it has run ({@code acrossNodes} only)
 */
public record HealthCheck(
        UUID id,
        UUID reservationId,
        HealthCheckKind kind,
        @Nullable Integer level,
        boolean acrossNodes,
        Status status,
        String requestedBy,
        Instant requestedAt,
        @Nullable Instant finishedAt,
        @Nullable String detail,
        List<NodeResult> results,
        @Nullable AcrossNodesResult acrossNodesResult) {

    public HealthCheck {
        results = List.copyOf(results);
        if (level != null && (kind != HealthCheckKind.DCGM_DIAG || level < 1 || level > 3)) {
            throw new IllegalArgumentException("level is the DCGM diagnostic level: 1, 2 or 3, for DCGM_DIAG only");
        }
        if (acrossNodes && kind != HealthCheckKind.NCCL_ALL_REDUCE) {
            throw new IllegalArgumentException("only NCCL_ALL_REDUCE runs across nodes");
        }
    }

    /** The DCGM level asked for; 1 when none was. */
    int levelOrDefault() {
        return level == null ? 1 : level;
    }

    public enum Status {
        QUEUED,
        RUNNING,
        PASSED,
        FAILED,
        ERROR
    }

    /**
     * The check on one node: whether it passed, what the tool's output says, the class of fault found
     * ({@code NONE}, {@code SOFTWARE}, {@code HARDWARE}), and the tool's own output.
     */
    public record NodeResult(
            String node,
            boolean passed,
            @Nullable String summary,
            @Nullable String fault,
            String output,
            Duration took) {}

    /** The one job across the nodes: whether it passed (the bus bandwidth against the multi-node threshold), what it printed. */
    public record AcrossNodesResult(List<String> nodes, boolean passed, String summary, String output, Duration took) {

        public AcrossNodesResult {
            nodes = List.copyOf(nodes);
        }
    }
}
