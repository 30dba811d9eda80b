package dev.allot.audit;

import java.time.Instant;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/** A recorded change as the API shows it. */
public record AuditEvent(
        long id,
        Instant occurredAt,
        String actor,
        @Nullable String tenant,
        String action,
        String objectType,
        String objectId,
        @Nullable String requestId,
        @Nullable JsonNode before,
        @Nullable JsonNode after) {}
