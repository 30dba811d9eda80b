package dev.allot.provisioning.lifecycle;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.booking.Bookings;
import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationStatus;
import dev.allot.booking.spec.ClusterSpec.Orchestrator;
import dev.allot.provisioning.driver.ClusterAccess;
import dev.allot.provisioning.driver.ClusterDriverException;
import dev.allot.provisioning.driver.ClusterDrivers;
import dev.allot.provisioning.driver.Endpoints;
import dev.allot.shared.AllotException;
import dev.allot.shared.security.Caller;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What a tenant sees of a reservation's cluster, and its kubeconfig. Reading goes through booking, so a caller who
 * may not see the reservation gets the same 404 as for one that does not exist.
 */
@Service
public class ClusterViews {

    /**
     * A reservation's cluster: its state, how to reach it, its nodes and the timeline of every step.
     *
     * @param stateReason why it is in that state (a failure, a degradation, the cause of a teardown)
     * @param failureReason why provisioning or teardown gave up
     */
    public record ClusterView(
            UUID reservationId,
            String tenant,
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
            Endpoints endpoints,
            List<NodeHealth> nodes,
            List<TimelineEntry> timeline) {}

    private final Bookings bookings;

    private final ClusterRepository clusters;

    private final ClusterDrivers drivers;

    private final AuditLog audit;

    private final TransactionTemplate transactions;

    private final LifecycleProperties properties;

    private final Clock clock;

    private final NodeHealthNow healthNow;

    ClusterViews(
            Bookings bookings,
            ClusterRepository clusters,
            ClusterDrivers drivers,
            AuditLog audit,
            TransactionTemplate transactions,
            LifecycleProperties properties,
            Clock clock,
            NodeHealthNow healthNow) {
        this.healthNow = healthNow;
        this.bookings = bookings;
        this.clusters = clusters;
        this.drivers = drivers;
        this.audit = audit;
        this.transactions = transactions;
        this.properties = properties;
        this.clock = clock;
    }

    public ClusterView view(Caller caller, String tenant, UUID reservationId) {
        Reservation reservation = bookings.get(caller, tenant, reservationId);
        Instant now = clock.instant();
        return clusters.find(reservationId)
                .map(cluster -> new ClusterView(
                        reservationId,
                        reservation.tenant(),
                        reservation.status(now),
                        cluster.orchestrator(),
                        cluster.pool(),
                        cluster.state(),
                        cluster.stateReason(),
                        cluster.failureReason() != null ? cluster.failureReason() : reservation.failureReason(),
                        cluster.provisionAt(),
                        cluster.readyAt(),
                        cluster.endsAt(),
                        cluster.tornDownAt(),
                        cluster.endpoints(),
                        // before provisioning the cluster knows no nodes yet: show the ones the reservation holds
                        cluster.nodes().isEmpty()
                                ? notChecked(reservation)
                                : cluster.open() ? healthNow.of(reservationId, cluster.nodes()) : cluster.nodes(),
                        clusters.timeline(reservationId)))
                // Booked a moment ago: the lifecycle has not picked the reservation up yet.
                .orElseGet(() -> new ClusterView(
                        reservationId,
                        reservation.tenant(),
                        reservation.status(now),
                        reservation.cluster().orchestrator(),
                        reservation.pool(),
                        ClusterState.PENDING,
                        null,
                        reservation.failureReason(),
                        reservation.startsAt().minus(properties.leadTime()),
                        null,
                        reservation.endsAt(),
                        null,
                        Endpoints.NONE,
                        notChecked(reservation),
                        List.of()));
    }

    private static List<NodeHealth> notChecked(Reservation reservation) {
        return reservation.nodes().stream()
                .map(n -> new NodeHealth(n, null, "NOT_CHECKED", null))
                .toList();
    }

    /**
     * The namespace-scoped kubeconfig of a ready Kubernetes cluster, read from the cluster each time (it holds a
     * token Allot never stores). Needs the MEMBER role; every download is audited.
     */
    public String kubeconfig(Caller caller, String tenant, UUID reservationId) {
        Reservation reservation = bookings.get(caller, tenant, reservationId);
        caller.requireBookingIn(tenant, reservation.project());
        Cluster cluster = clusters.find(reservationId).orElse(null);
        if (reservation.cluster().orchestrator() != Orchestrator.KUBERNETES) {
            throw new AllotException(
                    404,
                    "no_kubeconfig",
                    "Not found",
                    "Reservation " + reservationId
                            + " has a " + reservation.cluster().orchestrator() + " cluster: there is no kubeconfig"
                            + (cluster != null && cluster.endpoints().sshHost() != null
                                    ? "; log in to " + cluster.endpoints().sshHost()
                                    : ""));
        }
        if (cluster == null || !cluster.state().isServing()) {
            ClusterState state = cluster == null ? ClusterState.PENDING : cluster.state();
            throw AllotException.conflict(
                            "cluster_not_ready",
                            "The cluster of reservation " + reservationId + " is " + state
                                    + ": a kubeconfig exists only while it is READY or DEGRADED")
                    .with("state", state);
        }
        ClusterAccess access;
        try {
            access = drivers.forPool(cluster.pool()).access(cluster.ref());
        } catch (ClusterDriverException ex) {
            throw new AllotException(
                    503,
                    "cluster_driver_unavailable",
                    "Service unavailable",
                    "The cluster of pool " + cluster.pool() + " did not answer; try again: " + ex.getMessage());
        }
        if (!(access instanceof ClusterAccess.Kubernetes kubernetes)) {
            throw new AllotException(
                    404,
                    "no_kubeconfig",
                    "Not found",
                    "Pool " + cluster.pool()
                            + " is served by a stand-in driver without a Kubernetes API: there is no kubeconfig");
        }
        transactions.executeWithoutResult(status -> audit.record(new AuditRecord(
                tenant, "cluster.kubeconfig.read", "reservation", reservationId.toString(), null, null)));
        return kubernetes.kubeconfig();
    }
}
