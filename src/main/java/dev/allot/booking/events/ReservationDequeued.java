package dev.allot.booking.events;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A queued booking left its queue: {@code BOOKED} (a {@link ReservationConfirmed} follows it in the same
 * transaction) or {@code EXPIRED} (its latest start passed first; it held nothing, nothing is charged).
 */
public record ReservationDequeued(
        UUID reservationId,
        String tenant,
        Outcome outcome,
        @Nullable String reason,
        Instant at) {

    public enum Outcome {
        BOOKED,
        EXPIRED
    }
}
