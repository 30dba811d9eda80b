package dev.allot.provisioning.health;

import java.time.Duration;

/** Outcome of one check on one node; {@code output} is the tool's raw report, for parsing by {@code health}. */
public record HealthCheckResult(String node, HealthCheckKind kind, boolean passed, String output, Duration took) {
}
