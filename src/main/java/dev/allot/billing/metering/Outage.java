package dev.allot.billing.metering;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/** A node out of service for a fault from {@code from} until {@code to} (null: still out). */
public record Outage(String hostname, Instant from, @Nullable Instant to) {

	public Instant endOr(Instant fallback) {
		return to == null || to.isAfter(fallback) ? fallback : to;
	}

}
