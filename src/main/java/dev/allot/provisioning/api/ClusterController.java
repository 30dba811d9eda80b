package dev.allot.provisioning.api;

import dev.allot.booking.ReservationStatus;
import dev.allot.booking.spec.ClusterSpec.Orchestrator;
import dev.allot.provisioning.lifecycle.ClusterState;
import dev.allot.provisioning.lifecycle.ClusterViews;
import dev.allot.provisioning.lifecycle.ClusterViews.ClusterView;
import dev.allot.provisioning.lifecycle.NodeHealth;
import dev.allot.provisioning.lifecycle.TimelineEntry;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.security.Caller;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/tenants/{tenant}/reservations/{id}/cluster")
class ClusterController {

    private static final MediaType YAML = MediaType.parseMediaType("application/yaml");

    private static final long MAX_WAIT_MINUTES = 15;

    private static final Duration MAX_WAIT = Duration.ofMinutes(MAX_WAIT_MINUTES);

    private static final Duration POLL = Duration.ofSeconds(1);

    private static final Set<ReservationStatus> FINAL_RESERVATION =
            EnumSet.of(ReservationStatus.COMPLETED, ReservationStatus.CANCELLED, ReservationStatus.FAILED);

    private final ClusterViews clusters;

    ClusterController(ClusterViews clusters) {
        this.clusters = clusters;
    }

    /**
     * The cluster's state, how to connect, its nodes and the timeline of every lifecycle step. With
     * {@code waitFor} (a state) the answer waits until the cluster is in that state or can no longer get there
     * (failed, deleted, the reservation over; {@code DEGRADED} also ends a wait for {@code READY}: it is handed
     * over), or until {@code timeout} (ISO-8601, default and at most {@value #MAX_WAIT_MINUTES} minutes) has
     * passed; it answers at once when that is so already. The body then says which, in {@code state}.
     * Looked up again every second, each time in a transaction of its own, so a wait holds no connection and
     * sees a step made on any replica.
     */
    @GetMapping
    ClusterStatusBody get(
            Caller caller,
            @PathVariable String tenant,
            @PathVariable UUID id,
            @RequestParam(required = false) @Nullable ClusterState waitFor,
            @RequestParam(required = false) @Nullable String timeout)
            throws InterruptedException {
        Duration wait = waitFor == null ? Duration.ZERO : waitTime(timeout);
        long deadline = System.nanoTime() + wait.toNanos();
        ClusterView view = clusters.view(caller, tenant, id);
        while (waitFor != null && !settled(view, waitFor) && System.nanoTime() < deadline) {
            Thread.sleep(Math.min(POLL.toMillis(), Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
            view = clusters.view(caller, tenant, id);
        }
        return body(tenant, id, view);
    }

    private static ClusterStatusBody body(String tenant, UUID id, ClusterView view) {
        String kubeconfig = view.orchestrator() == Orchestrator.KUBERNETES
                ? "/api/v1/tenants/" + tenant + "/reservations/" + id + "/cluster/kubeconfig"
                : null;
        return ClusterStatusBody.of(view, kubeconfig);
    }

    /** In the state waited for, or where it can no longer get there. */
    private static boolean settled(ClusterView view, ClusterState wanted) {
        ClusterState state = view.state();
        return state == wanted
                || state == ClusterState.FAILED
                || state == ClusterState.DELETED
                || (wanted == ClusterState.READY && state == ClusterState.DEGRADED)
                || FINAL_RESERVATION.contains(view.reservationStatus());
    }

    private static Duration waitTime(@Nullable String timeout) {
        if (timeout == null) {
            return MAX_WAIT;
        }
        try {
            Duration wait = Duration.parse(timeout);
            if (!wait.isNegative() && wait.compareTo(MAX_WAIT) <= 0) {
                return wait;
            }
        } catch (DateTimeParseException ex) {
            // refused below
        }
        throw InvalidInputException.of(
                "timeout", "must be an ISO-8601 duration from PT0S to PT" + MAX_WAIT_MINUTES + "M, such as PT10M");
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

    record ClusterStatusBody(
            UUID reservationId,
            ReservationStatus reservationStatus,
            Orchestrator orchestrator,
            String pool,
            ClusterState state,
            @Nullable String stateReason,
            @Nullable String failureReason,
            Instant provisionAt,
            @Nullable Instant readyAt,
            Instant endsAt,
            @Nullable Instant tornDownAt,
            ClusterEndpointsBody endpoints,
            List<NodeHealth> nodes,
            List<TimelineEntry> timeline) {

        static ClusterStatusBody of(ClusterView view, @Nullable String kubeconfig) {
            var e = view.endpoints();
            return new ClusterStatusBody(
                    view.reservationId(),
                    view.reservationStatus(),
                    view.orchestrator(),
                    view.pool(),
                    view.state(),
                    view.stateReason(),
                    view.failureReason(),
                    view.provisionAt(),
                    view.readyAt(),
                    view.endsAt(),
                    view.tornDownAt(),
                    new ClusterEndpointsBody(
                            e.sshHost(),
                            e.slurmAccount(),
                            e.slurmPartition(),
                            e.slurmReservation(),
                            e.apiServer(),
                            e.namespace(),
                            kubeconfig,
                            e.other(),
                            null),
                    view.nodes(),
                    view.timeline());
        }
    }

    /**
     * How to connect: for Slurm the login host and what to pass to {@code sbatch}; for Kubernetes the API server,
     * the namespace and where to fetch the kubeconfig; {@code grafana} is reserved for the observability work.
     */
    record ClusterEndpointsBody(
            @Nullable String sshHost,
            @Nullable String slurmAccount,
            @Nullable String slurmPartition,
            @Nullable String slurmReservation,
            @Nullable String apiServer,
            @Nullable String namespace,
            @Nullable String kubeconfig,
            @Nullable String other,
            @Nullable String grafana) {}
}
