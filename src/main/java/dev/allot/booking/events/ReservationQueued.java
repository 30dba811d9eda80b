package dev.allot.booking.events;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/** A booking that did not fit waits in its pool's queue, holding nothing, to start within its start window. */
public record ReservationQueued(
        UUID reservationId,
        String tenant,
        String project,
        String pool,
        int gpus,
        Duration duration,
        Instant earliestStart,
        Instant latestStart,
        Instant at) {}
