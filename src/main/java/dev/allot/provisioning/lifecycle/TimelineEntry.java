package dev.allot.provisioning.lifecycle;

import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** One recorded step of a cluster's lifecycle and its outcome, with the cluster's state after it. */
public record TimelineEntry(
        Instant at,
        String step,
        String outcome,
        ClusterState state,
        @Nullable Integer attempt,
        String detail) {

    private static final Map<String, String> STEPS = Map.of(
            "schedule",
            "Provisioning",
            "provision",
            "Provisioning",
            "teardown",
            "Teardown",
            "watchdog",
            "Watchdog",
            "health-check",
            "Health check",
            "reconcile",
            "Reconciler");

    private static final Map<String, String> OUTCOMES = Map.ofEntries(
            Map.entry("SCHEDULED", "scheduled"),
            Map.entry("STARTED", "started"),
            Map.entry("PROGRESSED", "progressed"),
            Map.entry("SUCCEEDED", "done"),
            Map.entry("SKIPPED", "skipped"),
            Map.entry("FAILED", "failed"),
            Map.entry("GAVE_UP", "gave up"),
            Map.entry("POSTPONED", "postponed"),
            Map.entry("RETRYING", "will retry"),
            Map.entry("ACTED", "acted"),
            Map.entry("WAITING", "waiting"));

    /** The entry as a person reads it: {@code Provisioning scheduled}, {@code Teardown done}, never {@code schedule scheduled}. */
    public String summary() {
        String what = STEPS.getOrDefault(step, step.replace('-', ' '));
        String how =
                OUTCOMES.getOrDefault(outcome, outcome.toLowerCase(Locale.ROOT).replace('_', ' '));
        return what.substring(0, 1).toUpperCase(Locale.ROOT) + what.substring(1) + " " + how;
    }
}
