package dev.allot.provisioning.api;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import dev.allot.booking.ClusterSpec.Orchestrator;
import dev.allot.provisioning.health.NodeHealth;
import dev.allot.provisioning.lifecycle.ClusterViews;
import dev.allot.provisioning.lifecycle.ClusterViews.ClusterView;
import dev.allot.provisioning.lifecycle.TimelineEntry;
import dev.allot.shared.security.Caller;
import org.jspecify.annotations.Nullable;

import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/tenants/{tenant}/reservations/{id}/cluster")
class ClusterController {

	private static final MediaType YAML = MediaType.parseMediaType("application/yaml");

	private final ClusterViews clusters;

	ClusterController(ClusterViews clusters) {
		this.clusters = clusters;
	}

	/** The cluster's state, how to connect, its nodes and the timeline of every lifecycle step. */
	@GetMapping
	ClusterStatusBody get(Caller caller, @PathVariable String tenant, @PathVariable UUID id) {
		ClusterView view = clusters.view(caller, tenant, id);
		String kubeconfig = view.orchestrator() == Orchestrator.KUBERNETES
				? "/api/v1/tenants/" + tenant + "/reservations/" + id + "/cluster/kubeconfig" : null;
		return ClusterStatusBody.of(view, kubeconfig);
	}

	/** The namespace-scoped kubeconfig of a ready Kubernetes cluster; never cached, never stored. */
	@GetMapping("/kubeconfig")
	ResponseEntity<String> kubeconfig(Caller caller, @PathVariable String tenant, @PathVariable UUID id) {
		String kubeconfig = clusters.kubeconfig(caller, tenant, id);
		return ResponseEntity.ok()
			.contentType(YAML)
			.cacheControl(CacheControl.noStore())
			.header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"allot-" + id + ".kubeconfig\"")
			.body(kubeconfig);
	}

	record ClusterStatusBody(UUID reservationId, String reservationStatus, String orchestrator, String pool, String state,
			@Nullable String stateReason, @Nullable String failureReason, Instant provisionAt, @Nullable Instant readyAt,
			Instant endsAt, @Nullable Instant tornDownAt, ClusterEndpointsBody endpoints, List<NodeHealth> nodes,
			List<TimelineEntry> timeline) {

		static ClusterStatusBody of(ClusterView view, @Nullable String kubeconfig) {
			var e = view.endpoints();
			return new ClusterStatusBody(view.reservationId(), view.reservationStatus().name(), view.orchestrator().name(),
					view.pool(), view.state().name(), view.stateReason(), view.failureReason(), view.provisionAt(),
					view.readyAt(), view.endsAt(), view.tornDownAt(),
					new ClusterEndpointsBody(e.sshHost(), e.slurmAccount(), e.slurmPartition(), e.slurmReservation(),
							e.apiServer(), e.namespace(), kubeconfig, e.other(), null),
					view.nodes(), view.timeline());
		}

	}

	/**
	 * How to connect: for Slurm the login host and what to pass to {@code sbatch}; for Kubernetes the API server,
	 * the namespace and where to fetch the kubeconfig; {@code grafana} is reserved for the observability work.
	 */
	record ClusterEndpointsBody(@Nullable String sshHost, @Nullable String slurmAccount, @Nullable String slurmPartition,
			@Nullable String slurmReservation, @Nullable String apiServer, @Nullable String namespace,
			@Nullable String kubeconfig, @Nullable String other, @Nullable String grafana) {
	}

}
