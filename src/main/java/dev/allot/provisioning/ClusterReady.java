package dev.allot.provisioning;

import dev.allot.booking.spec.ClusterSpec.Orchestrator;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** A reservation's cluster passed its checks and was handed over: metering of the reservation may start. */
public record ClusterReady(
        UUID reservationId,
        String tenant,
        String project,
        String pool,
        Orchestrator orchestrator,
        List<String> nodes,
        int gpus,
        Instant readyAt,
        Instant endsAt) {

    public ClusterReady {
        nodes = List.copyOf(nodes);
    }
}
