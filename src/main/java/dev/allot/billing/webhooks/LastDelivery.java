package dev.allot.billing.webhooks;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The delivery of the webhook's most recent event: when it was last tried (or enqueued, if not tried yet), what it
 * carried, and the generic reason its last attempt failed ({@code null} when it did not). "Most recent" is by the
 * event, not by the attempt: a retry of an older event does not hide a newer one.
 */
public record LastDelivery(
        Instant at,
        LifecycleEvent event,
        WebhookDeliveryStatus status,
        @Nullable String error) {}
