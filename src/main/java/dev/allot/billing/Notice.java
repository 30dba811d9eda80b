package dev.allot.billing;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A notice to a team as a page shows it: what happened in a word or two ({@link #headline}), the message (written
 * for the API: its instants in UTC, which pages show in the viewer's zone), when, and the reservation it concerns
 * (null when none, as a budget alert).
 */
public record Notice(
        UUID id,
        String kind,
        String headline,
        String message,
        Instant createdAt,
        @Nullable UUID reservationId) {

    /** What a notice of this kind is about, in words. */
    public static String headline(String kind) {
        return switch (kind) {
            case "BUDGET_THRESHOLD" -> "Budget";
            case "IDLE_RESERVATION" -> "Idle";
            case "IDLE_RECLAIM_NOTICE" -> "To be released: idle";
            case "IDLE_RELEASED" -> "Released: idle";
            case "RESERVATION_PREEMPTED" -> "Preempted";
            case "NODE_NOT_REPLACED" -> "A node is out of service";
            case "RESERVATION_FAILED" -> "Failed";
            case "QUOTA_REQUEST_DECIDED" -> "Quota request decided";
            case "APPROVAL_REQUESTED" -> "Approval asked";
            case "APPROVAL_DECIDED" -> "Approval decided";
            default -> "Notice";
        };
    }
}
