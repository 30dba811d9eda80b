package dev.allot.booking;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** A booking committed: its nodes are held for the window. */
public record ReservationConfirmed(UUID reservationId, String tenant, String project, String pool, int gpus,
		Instant startsAt, Instant endsAt, List<String> nodes) {
}
