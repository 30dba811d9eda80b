/**
 * The per-tenant idleReclaim policy: what happens to a reservation that idle detection flagged (off, a notice,
 * or an early release after a notice), run replica-safe by db-scheduler.
 */
@NullMarked
package dev.allot.billing.idle;

import org.jspecify.annotations.NullMarked;
