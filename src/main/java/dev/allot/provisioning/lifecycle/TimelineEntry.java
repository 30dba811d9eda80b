package dev.allot.provisioning.lifecycle;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/** One recorded step of a cluster's lifecycle and its outcome, with the cluster's state after it. */
public record TimelineEntry(Instant at, String step, String outcome, ClusterState state, @Nullable Integer attempt,
		String detail) {

	private static final java.util.Map<String, String> STEPS = java.util.Map.of("schedule", "Provisioning",
			"provision", "Provisioning", "teardown", "Teardown", "watchdog", "Watchdog", "health-check", "Health check",
			"reconcile", "Reconciler");

	private static final java.util.Map<String, String> OUTCOMES = java.util.Map.ofEntries(
			java.util.Map.entry("SCHEDULED", "scheduled"), java.util.Map.entry("STARTED", "started"),
			java.util.Map.entry("PROGRESSED", "progressed"), java.util.Map.entry("SUCCEEDED", "done"),
			java.util.Map.entry("SKIPPED", "skipped"), java.util.Map.entry("FAILED", "failed"),
			java.util.Map.entry("GAVE_UP", "gave up"), java.util.Map.entry("POSTPONED", "postponed"),
			java.util.Map.entry("RETRYING", "will retry"), java.util.Map.entry("ACTED", "acted"),
			java.util.Map.entry("WAITING", "waiting"));

	/** The entry as a person reads it: {@code Provisioning scheduled}, {@code Teardown done}, never {@code schedule scheduled}. */
	public String summary() {
		String what = STEPS.getOrDefault(step, step.replace('-', ' '));
		String how = OUTCOMES.getOrDefault(outcome, outcome.toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
		return what.substring(0, 1).toUpperCase(java.util.Locale.ROOT) + what.substring(1) + " " + how;
	}

}
