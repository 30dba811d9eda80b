package dev.allot.provisioning.lifecycle;

import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.booking.ReservationStatus;
import dev.allot.provisioning.ClusterReady;
import dev.allot.provisioning.NodeDegraded;
import dev.allot.provisioning.checks.HealthProperties;
import dev.allot.provisioning.checks.NodeChecks;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.Endpoints;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Hands a built and checked cluster over to its tenant: {@code READY} (or {@code DEGRADED}), the reservation
 * {@code ACTIVE} and {@link ClusterReady} commit together.
 */
@Component
class Handover {

    private final ClusterRepository clusters;

    private final ReservationLifecycle reservations;

    private final ClusterTransitions transitions;

    private final ClusterSchedule schedule;

    private final Timeline timeline;

    private final HealthProperties health;

    private final ApplicationEventPublisher events;

    private final TransactionTemplate transactions;

    private final Clock clock;

    Handover(
            ClusterRepository clusters,
            ReservationLifecycle reservations,
            ClusterTransitions transitions,
            ClusterSchedule schedule,
            Timeline timeline,
            HealthProperties health,
            ApplicationEventPublisher events,
            TransactionTemplate transactions,
            Clock clock) {
        this.clusters = clusters;
        this.reservations = reservations;
        this.transitions = transitions;
        this.schedule = schedule;
        this.timeline = timeline;
        this.health = health;
        this.events = events;
        this.transactions = transactions;
        this.clock = clock;
    }

    /**
     * Hands the cluster over: {@code READY}, the reservation {@code ACTIVE} and {@link ClusterReady} commit together.
     * Overtaken when the reservation was cancelled or the cluster torn down meanwhile.
     */
    Overtaken handOver(
            Reservation booked,
            ClusterBlueprint spec,
            Endpoints endpoints,
            List<NodeHealth> nodes,
            boolean checked,
            List<NodeChecks.Outcome> failed,
            @Nullable String problem,
            int attempt) {
        UUID id = booked.id();
        return transactions.execute(status -> {
            Instant now = clock.instant();
            Cluster cluster = clusters.findForUpdate(id).orElseThrow();
            Reservation reservation = reservations.find(id).orElseThrow();
            if (cluster.state() != ClusterState.RUNNING_ACCEPTANCE_TESTS || !cluster.open()) {
                return Overtaken.of(cluster, attempt, timeline);
            }
            if (reservation.status(now) != ReservationStatus.PROVISIONING) {
                // Cancelled (or failed) while this step built: the teardown it scheduled will find the cluster
                // RUNNING_ACCEPTANCE_TESTS; removing what was built now spares it the wait.
                return Overtaken.BY_TEARDOWN;
            }
            String failedCheck = !failed.isEmpty()
                    ? failed.stream().map(NodeChecks.Outcome::node).collect(Collectors.joining(", "))
                            + " before handover"
                    : problem;
            transitions.handedOver(cluster, failedCheck, now);
            clusters.built(id, endpoints, nodes);
            recordHandedOver(reservation, checked, failed, problem, attempt, now);
            events.publishEvent(new ClusterReady(
                    id,
                    reservation.tenant(),
                    reservation.project(),
                    reservation.pool(),
                    cluster.orchestrator(),
                    reservation.nodes(),
                    reservation.gpus(),
                    now,
                    reservation.endsAt()));
            if (!reservation.endsAt().equals(spec.endsAt())) {
                schedule.provision(id, now, "the window was extended while the cluster was built");
            }
            return Overtaken.NO;
        });
    }

    /**
     * The handover on the timeline: ready, or degraded for the all-reduce's problem or the nodes that failed (each
     * published as {@link NodeDegraded}).
     */
    private void recordHandedOver(
            Reservation reservation,
            boolean checked,
            List<NodeChecks.Outcome> failed,
            @Nullable String problem,
            int attempt,
            Instant now) {
        UUID id = reservation.id();
        if (failed.isEmpty() && problem != null) {
            timeline.record(
                    id,
                    Timeline.PROVISION,
                    "SUCCEEDED",
                    ClusterState.DEGRADED,
                    attempt,
                    "Every node passed " + acceptanceKinds() + ", but NCCL_ALL_REDUCE failed on " + problem
                            + ": handed over DEGRADED.");
        } else if (failed.isEmpty()) {
            timeline.record(
                    id,
                    Timeline.PROVISION,
                    "SUCCEEDED",
                    ClusterState.READY,
                    attempt,
                    (checked ? "Every node passed " + acceptanceKinds() + ". " : "No acceptance test on this pool. ")
                            + "Ready: handed over to the tenant.");
        } else {
            String why =
                    failed.stream().map(o -> o.node() + " (" + o.detail() + ")").collect(Collectors.joining("; "));
            timeline.record(
                    id,
                    Timeline.PROVISION,
                    "SUCCEEDED",
                    ClusterState.DEGRADED,
                    attempt,
                    "Acceptance failed on " + why + " and no healthy node could replace it: handed over DEGRADED.");
            // the tenant is not charged for a failed node from handover until it passes or is replaced (billing)
            failed.forEach(o -> events.publishEvent(
                    new NodeDegraded(id, reservation.tenant(), o.node(), now, "acceptance failed: " + o.detail())));
        }
    }

    private String acceptanceKinds() {
        return health.acceptance().stream().map(Enum::name).collect(Collectors.joining(", "));
    }
}
