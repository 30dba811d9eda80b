package dev.allot.billing.webhooks;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * The webhook's most recent delivery: when it was last tried (or enqueued, if not tried yet), what it carried,
 * and the generic reason its last attempt failed ({@code null} when it did not).
 */
public record LastDelivery(Instant at, LifecycleEvent event, WebhookDeliveryStatus status, @Nullable String error) {
}
