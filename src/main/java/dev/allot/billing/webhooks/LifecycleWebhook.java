package dev.allot.billing.webhooks;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** A tenant's lifecycle webhook as the API shows it: never its secret. */
public record LifecycleWebhook(
        UUID id,
        String url,
        List<LifecycleEvent> events,
        Instant createdAt,
        @Nullable LastDelivery lastDelivery) {}
