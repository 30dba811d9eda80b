/** Budgets per tenant and project, alerts at their thresholds, notifications and signed webhook deliveries. */
@NullMarked
package dev.allot.billing.budgets;

import org.jspecify.annotations.NullMarked;
