package dev.allot.provisioning.health;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * An on-demand check of a ready cluster's nodes, asked for by its tenant and run by the driver.
 *
 * @param detail a summary, or why the check could not run
 * @param results one per node, once the check has run
 */
public record HealthCheck(UUID id, UUID reservationId, HealthCheckKind kind, Status status, String requestedBy,
		Instant requestedAt, @Nullable Instant finishedAt, @Nullable String detail, List<NodeResult> results) {

	public HealthCheck {
		results = List.copyOf(results);
	}

	public enum Status {

		QUEUED, RUNNING, PASSED, FAILED, ERROR

	}

	/** The check on one node: whether it passed, and the tool's own output. */
	public record NodeResult(String node, boolean passed, String output, Duration took) {
	}

}
