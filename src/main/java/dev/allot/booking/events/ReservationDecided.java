package dev.allot.booking.events;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A booking that waited for approval was decided: {@code APPROVED} (a {@link ReservationConfirmed} follows it),
 * {@code DENIED} or {@code EXPIRED} (its nodes freed, nothing charged).
 */
public record ReservationDecided(
        UUID reservationId,
        String tenant,
        Outcome outcome,
        @Nullable String reason,
        Instant at) {

    public enum Outcome {
        APPROVED,
        DENIED,
        EXPIRED
    }
}
