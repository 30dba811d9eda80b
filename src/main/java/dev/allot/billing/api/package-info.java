/** REST adapters of billing: ledger, statements, budget, notifications, usage and platform reports, telemetry. */
@NullMarked
package dev.allot.billing.api;

import org.jspecify.annotations.NullMarked;
