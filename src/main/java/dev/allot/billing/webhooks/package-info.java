/**
 * Tenants' webhooks for the lifecycle of their reservations and clusters, for CI: which events each wants, and
 * one signed delivery per webhook, event and reservation, retried like budget webhooks
 * ({@link dev.allot.billing.budgets.WebhookDelivery}) and kept so that a failed delivery is visible.
 */
@NullMarked
package dev.allot.billing.webhooks;

import org.jspecify.annotations.NullMarked;
