package dev.allot.cli;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;

import dev.allot.client.ApiException;
import dev.allot.client.api.ClustersApi;
import dev.allot.client.model.ClusterStatusBody;

/**
 * Waits for a cluster state with the server's long-poll (GET .../cluster?waitFor=...&timeout=PT10M): one
 * request per ten minutes instead of polling, repeated until the state, a state that ends the wait, or the
 * caller's deadline.
 */
final class ClusterWait {

	/** States after which the wanted one will not come. */
	private static final Set<String> FINAL = Set.of("FAILED", "DELETING", "DELETED");

	private ClusterWait() {
	}

	static ClusterStatusBody until(Session session, String tenant, UUID reservation, String state, Duration limit)
			throws ApiException {
		ClustersApi clusters = new ClustersApi(session.client());
		Instant deadline = Instant.now().plus(limit);
		while (true) {
			Duration left = Duration.between(Instant.now(), deadline);
			Duration poll = left.compareTo(Duration.ofMinutes(10)) < 0 ? left : Duration.ofMinutes(10);
			if (poll.isNegative() || poll.isZero()) {
				throw new CliFailure(ExitCodes.FAILED, "cluster of " + reservation + " not " + state + " within "
						+ limit);
			}
			ClusterStatusBody status = clusters.getClusterStatus(tenant, reservation, state,
					Duration.ofSeconds(Math.max(1, poll.toSeconds())).toString());
			if (state.equals(status.getState())) {
				return status;
			}
			if (status.getState() != null && FINAL.contains(status.getState()) && !FINAL.contains(state)) {
				throw new CliFailure(ExitCodes.FAILED, "cluster of " + reservation + " is " + status.getState()
						+ (status.getFailureReason() != null ? ": " + status.getFailureReason() : ""));
			}
		}
	}

}
