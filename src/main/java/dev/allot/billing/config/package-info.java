/** Billing's settings ({@code allot.billing.*}), read by metering, the ledger, budgets' notifications, webhooks and idle detection alike. */
@NullMarked
package dev.allot.billing.config;

import org.jspecify.annotations.NullMarked;
