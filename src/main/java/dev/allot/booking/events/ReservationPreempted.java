package dev.allot.booking.events;

import java.time.Instant;
import java.util.UUID;

/**
 * A preemptible reservation reclaimed for a guaranteed booking of another tenant (never named): nothing is charged
 * from {@code at} on, and its nodes are free again from {@code freedFrom} on (the notice a running one gets).
 */
public record ReservationPreempted(
        UUID reservationId, String tenant, String pool, Instant at, Instant freedFrom, String reason) {}
