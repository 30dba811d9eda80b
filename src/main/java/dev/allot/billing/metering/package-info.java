/** Metering: what each reservation is billed per period (from booking and cluster events, outages and credits), and GPU telemetry with idle detection. */
@NullMarked
package dev.allot.billing.metering;

import org.jspecify.annotations.NullMarked;
