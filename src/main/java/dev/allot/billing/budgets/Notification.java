package dev.allot.billing.budgets;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/** Something billing tells a tenant (a budget threshold reached, a reservation idle), and its webhook delivery. */
public record Notification(
        UUID id,
        String kind,
        String message,
        JsonNode details,
        Instant createdAt,
        String delivery,
        int attempts,
        @Nullable String lastError,
        @Nullable Instant deliveredAt) {}
