package dev.allot.billing.webhooks;

/** Where a delivery is: still tried ({@code PENDING}, also between retries), accepted, or given up. */
public enum WebhookDeliveryStatus {
    PENDING,
    DELIVERED,
    FAILED
}
