package dev.allot.quota;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A platform admin decided a tenant's quota request: {@code APPROVED} (applied) or {@code DENIED} (with its reason).
 * A withdrawal is the tenant's own doing, so it is not published.
 */
public record QuotaRequestDecided(
        UUID requestId,
        String tenant,
        QuotaRequest.Status outcome,
        @Nullable String reason,
        String decidedBy,
        Instant at) {}
