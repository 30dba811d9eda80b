package dev.allot.provisioning.lifecycle;

import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.booking.ReservationStatus;
import dev.allot.booking.events.ReservationCancelled;
import dev.allot.booking.events.ReservationConfirmed;
import dev.allot.booking.events.ReservationExtended;
import dev.allot.booking.events.ReservationPreempted;
import dev.allot.shared.UtcText;
import java.time.Clock;
import java.time.Instant;
import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.stereotype.Component;

/**
 * Booking's events, as the lifecycle's schedule: a confirmed reservation gets its cluster and its steps, a
 * cancellation brings teardown forward to now, an extension moves it to the new end (and updates a built cluster).
 * Delivered after booking commits, from the event publication registry, and again after a crash: each handler is
 * idempotent.
 */
@Component
class ClusterPlanner {

    private final ClusterRepository clusters;

    private final ReservationLifecycle reservations;

    private final ClusterSchedule schedule;

    private final Timeline timeline;

    private final LifecycleProperties properties;

    private final Clock clock;

    ClusterPlanner(
            ClusterRepository clusters,
            ReservationLifecycle reservations,
            ClusterSchedule schedule,
            Timeline timeline,
            LifecycleProperties properties,
            Clock clock) {
        this.clusters = clusters;
        this.reservations = reservations;
        this.schedule = schedule;
        this.timeline = timeline;
        this.properties = properties;
        this.clock = clock;
    }

    @ApplicationModuleListener
    void on(ReservationConfirmed confirmed) {
        Reservation reservation = reservations.find(confirmed.reservationId()).orElseThrow();
        plan(reservation);
    }

    /** Creates the cluster and schedules its steps, unless that was done before (a redelivered event). */
    void plan(Reservation reservation) {
        Instant now = clock.instant();
        ReservationStatus status = reservation.status(now);
        if (status == ReservationStatus.CANCELLED || status == ReservationStatus.FAILED) {
            return;
        }
        Instant provisionAt = reservation.startsAt().minus(properties.leadTime());
        if (provisionAt.isBefore(now)) {
            provisionAt = now;
        }
        if (!clusters.insertIfAbsent(
                reservation.id(),
                reservation.tenant(),
                reservation.pool(),
                reservation.cluster().orchestrator(),
                provisionAt,
                reservation.endsAt(),
                now)) {
            return;
        }
        schedule.provision(
                reservation.id(),
                provisionAt,
                "booked; provisioning starts " + properties.leadTime().toMinutes() + " minutes before the window");
        schedule.teardown(reservation.id(), reservation.endsAt(), "the window ends");
        timeline.record(
                reservation.id(),
                Timeline.SCHEDULE,
                "SCHEDULED",
                ClusterState.PENDING,
                null,
                "Provisioning scheduled for " + UtcText.of(provisionAt) + ", teardown for "
                        + UtcText.of(reservation.endsAt()) + ".");
    }

    @ApplicationModuleListener
    void on(ReservationCancelled cancelled) {
        clusters.findForUpdate(cancelled.reservationId()).filter(Cluster::open).ifPresent(cluster -> {
            schedule.cancel(ClusterSchedule.PROVISION, cluster.reservationId());
            schedule.teardown(cluster.reservationId(), clock.instant(), "the reservation was cancelled");
            timeline.record(
                    cluster.reservationId(),
                    Timeline.SCHEDULE,
                    "SCHEDULED",
                    cluster.state(),
                    null,
                    "Cancelled: teardown brought forward to now.");
        });
    }

    /** Preempted: the cluster is torn down when the notice ends (at once for one not built yet). */
    @ApplicationModuleListener
    void on(ReservationPreempted preempted) {
        clusters.findForUpdate(preempted.reservationId()).filter(Cluster::open).ifPresent(cluster -> {
            schedule.cancel(ClusterSchedule.PROVISION, cluster.reservationId());
            Instant at = cluster.state().isServing() ? preempted.freedFrom() : clock.instant();
            schedule.teardown(cluster.reservationId(), at, "the reservation was preempted");
            timeline.record(
                    cluster.reservationId(),
                    Timeline.SCHEDULE,
                    "SCHEDULED",
                    cluster.state(),
                    null,
                    "Preempted: teardown brought forward to " + UtcText.of(at) + ".");
        });
    }

    @ApplicationModuleListener
    void on(ReservationExtended extended) {
        clusters.findForUpdate(extended.reservationId()).filter(Cluster::open).ifPresent(cluster -> {
            if (!extended.endsAt().isAfter(cluster.endsAt())) {
                return;
            }
            clusters.reschedule(cluster.reservationId(), extended.endsAt());
            schedule.teardown(cluster.reservationId(), extended.endsAt(), "the window ends");
            String detail = "Extended: teardown moved to " + UtcText.of(extended.endsAt()) + ".";
            if (cluster.state().isServing()) {
                schedule.provision(cluster.reservationId(), clock.instant(), "the window was extended");
                detail += " The cluster is updated to the new window now.";
            }
            timeline.record(cluster.reservationId(), Timeline.SCHEDULE, "SCHEDULED", cluster.state(), null, detail);
        });
    }
}
