package dev.allot.provisioning.lifecycle;

import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.booking.ReservationStatus;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * What a provision step does, decided on the stored state under the cluster's row lock (the caller's transaction):
 * nothing, build the cluster, converge one already handed over on its window, or remove what an earlier run built.
 */
@Component
class ProvisionDecision {

    /** Logged as the provision step's own. */
    private static final Logger log = LoggerFactory.getLogger(Provisioning.class);

    enum Kind {
        SKIP,
        BUILD,
        CONVERGE,
        CLEAN
    }

    record Plan(
            Kind kind,
            @Nullable Reservation reservation,
            @Nullable Cluster cluster) {

        static final Plan SKIP = new Plan(Kind.SKIP, null, null);

        Reservation reservationToBuild() {
            return Objects.requireNonNull(reservation, "a plan to build or converge has its reservation");
        }

        Cluster clusterToBuild() {
            return Objects.requireNonNull(cluster, "a plan to build or clean has its cluster");
        }
    }

    private final ClusterRepository clusters;

    private final ReservationLifecycle reservations;

    private final Failures failures;

    private final ClusterSchedule schedule;

    private final Timeline timeline;

    private final ClusterTransitions transitions;

    private final Clock clock;

    ProvisionDecision(
            ClusterRepository clusters,
            ReservationLifecycle reservations,
            Failures failures,
            ClusterSchedule schedule,
            Timeline timeline,
            ClusterTransitions transitions,
            Clock clock) {
        this.clusters = clusters;
        this.reservations = reservations;
        this.failures = failures;
        this.schedule = schedule;
        this.timeline = timeline;
        this.transitions = transitions;
        this.clock = clock;
    }

    Plan plan(ClusterStep step, int attempt) {
        UUID id = step.reservationId();
        Cluster cluster = clusters.findForUpdate(id).orElse(null);
        if (cluster == null) {
            log.warn("No cluster for reservation {}: nothing to provision", id);
            return Plan.SKIP;
        }
        Instant now = clock.instant();
        boolean buildable = cluster.state() == ClusterState.PENDING
                || cluster.state().isBuilding()
                || cluster.state().isServing();
        if (!cluster.open() || !buildable) {
            timeline.record(
                    id,
                    Timeline.PROVISION,
                    "SKIPPED",
                    cluster.state(),
                    attempt,
                    "Nothing to build: the cluster is " + cluster.state() + ".");
            return cluster.everBuilt() ? new Plan(Kind.CLEAN, null, cluster) : Plan.SKIP;
        }
        Reservation reservation = reservations.find(id).orElseThrow();
        ReservationStatus status = reservation.status(now);
        if (status == ReservationStatus.CANCELLED
                || status == ReservationStatus.FAILED
                || status == ReservationStatus.PREEMPTED) {
            timeline.record(
                    id,
                    Timeline.PROVISION,
                    "SKIPPED",
                    cluster.state(),
                    attempt,
                    "Nothing to build: the reservation is " + status + ".");
            schedule.teardown(id, now, "the reservation is " + status);
            return Plan.SKIP;
        }
        if (!now.isBefore(reservation.endsAt())) {
            failures.giveUpBuilding(
                    id,
                    "The window ended at " + reservation.endsAt() + " before the cluster was built",
                    attempt,
                    Timeline.PROVISION);
            return Plan.SKIP;
        }
        if (cluster.state().isServing()) {
            return new Plan(Kind.CONVERGE, reservation, cluster);
        }
        boolean resumed = cluster.state().isBuilding();
        transitions.buildStarted(cluster);
        timeline.record(
                id,
                Timeline.PROVISION,
                "STARTED",
                ClusterState.CREATING,
                attempt,
                (resumed ? "Building again" : "Building") + " a " + cluster.orchestrator() + " cluster on "
                        + String.join(", ", reservation.nodes()) + " (" + step.why() + ").");
        return new Plan(Kind.BUILD, reservation, cluster);
    }
}
