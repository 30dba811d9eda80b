package dev.allot.provisioning.lifecycle;

import dev.allot.booking.ClusterSpec.Orchestrator;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import dev.allot.provisioning.driver.ClusterRef;
import dev.allot.provisioning.driver.Endpoints;
import dev.allot.provisioning.health.NodeHealth;

/**
 * The lifecycle's record of one reservation's cluster.
 *
 * @param provisionAt when building is due (the reservation's start minus the lead time)
 * @param endsAt the reservation's end, when teardown is due (moved by extensions)
 * @param provisioningStartedAt when building first began ({@code null}: nothing was ever built, teardown need not
 * ask the driver)
 * @param open whether the lifecycle still has work to do on it
 */
public record Cluster(UUID reservationId, String tenant, String pool, Orchestrator orchestrator, ClusterState state,
		@Nullable String stateReason, Instant stateChangedAt, Instant provisionAt, Instant endsAt,
		@Nullable Instant provisioningStartedAt, @Nullable Instant readyAt, @Nullable Instant tornDownAt,
		@Nullable String failureReason, boolean open, Endpoints endpoints, List<NodeHealth> nodes) {

	public Cluster {
		nodes = List.copyOf(nodes);
	}

	ClusterRef ref() {
		return new ClusterRef(reservationId, tenant);
	}

	boolean everBuilt() {
		return provisioningStartedAt != null;
	}

}
