package dev.allot.booking.events;

import java.time.Instant;
import java.util.UUID;

/** A reservation cancelled; its nodes are free again from {@code freedFrom} on. */
public record ReservationCancelled(UUID reservationId, String tenant, Instant cancelledAt, Instant freedFrom) {}
