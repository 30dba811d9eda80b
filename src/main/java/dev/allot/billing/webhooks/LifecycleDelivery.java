package dev.allot.billing.webhooks;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One delivery of a lifecycle event to a webhook; its id is the {@code X-Allot-Delivery} header and the body's
 * {@code id}, the same at every attempt.
 */
public record LifecycleDelivery(
        UUID id,
        LifecycleEvent event,
        UUID reservationId,
        WebhookDeliveryStatus status,
        int attempts,
        @Nullable String error,
        Instant createdAt,
        @Nullable Instant attemptedAt) {}
