package dev.allot.booking.events;

import java.time.Instant;
import java.util.UUID;

/**
 * Provisioning gave up on a reservation: its nodes are free again from {@code freedFrom} on, its quota use is
 * given back whole, and nothing is to be charged for it.
 */
public record ReservationFailed(
        UUID reservationId, String tenant, String pool, String reason, Instant failedAt, Instant freedFrom) {}
