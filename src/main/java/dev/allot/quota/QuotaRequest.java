package dev.allot.quota;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A tenant admin's request for a quota ({@code policies}, the whole policy list wanted) with a reason, and what a
 * platform admin decided: {@code APPROVED} (applied), {@code DENIED} (with its reason), or {@code WITHDRAWN}.
 */
public record QuotaRequest(
        UUID id,
        String tenant,
        Status status,
        List<QuotaPolicy> policies,
        String reason,
        String requestedBy,
        Instant createdAt,
        @Nullable String decidedBy,
        @Nullable Instant decidedAt,
        @Nullable String decisionReason) {

    public enum Status {
        PENDING,
        APPROVED,
        DENIED,
        WITHDRAWN
    }

    public QuotaRequest {
        policies = List.copyOf(policies);
    }
}
