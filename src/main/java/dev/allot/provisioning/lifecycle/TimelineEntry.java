package dev.allot.provisioning.lifecycle;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/** One recorded step of a cluster's lifecycle and its outcome, with the cluster's state after it. */
public record TimelineEntry(Instant at, String step, String outcome, ClusterState state, @Nullable Integer attempt,
		String detail) {
}
