package dev.allot.booking.events;

import java.time.Instant;
import java.util.UUID;

/**
 * A booking its tenant's policy asks approval for: it holds its nodes until {@code holdUntil}, waiting for a tenant
 * admin's decision ({@link ReservationDecided}).
 */
public record ReservationAwaitsApproval(
        UUID reservationId,
        String tenant,
        String project,
        String pool,
        int gpus,
        Instant startsAt,
        Instant endsAt,
        String requestedBy,
        Instant holdUntil) {}
