package dev.allot.booking.events;

import java.time.Instant;
import java.util.UUID;

/** A reservation kept its nodes for longer. */
public record ReservationExtended(UUID reservationId, String tenant, Instant previousEndsAt, Instant endsAt) {}
