package dev.allot.booking.events;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A booking committed: its nodes are held for the window. {@code labels}: what its tenant tagged it with. */
public record ReservationConfirmed(
        UUID reservationId,
        String tenant,
        String project,
        String pool,
        int gpus,
        Instant startsAt,
        Instant endsAt,
        List<String> nodes,
        Map<String, String> labels) {

    public ReservationConfirmed {
        nodes = List.copyOf(nodes);
        labels = Map.copyOf(labels);
    }
}
