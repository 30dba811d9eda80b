/**
 * Admin pages of quotas and prices: each tenant's policies per GPU type with their usage now and ahead, the
 * reservations a lower limit would leave above it (shown before saving), and the rate cards.
 */
@NullMarked
package dev.allot.quota.ui;

import org.jspecify.annotations.NullMarked;
