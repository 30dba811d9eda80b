package dev.allot.provisioning.lifecycle;

import dev.allot.booking.Holding;
import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.booking.ReservationStatus;
import dev.allot.shared.UtcText;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * What a teardown step does, decided on the stored state under the cluster's row lock (the caller's transaction):
 * nothing (already closed), wait for the end of the reservation's allocations, or start: remove what was built, or
 * close a cluster that never had anything built. A reservation whose window ended before its cluster was ready fails
 * here.
 */
@Component
class TeardownDecision {

    enum Kind {
        DONE,
        POSTPONE,
        NOTHING_BUILT,
        REMOVE
    }

    record Plan(
            Kind kind, @Nullable Cluster cluster, @Nullable Instant postponeTo) {

        static final Plan DONE = new Plan(Kind.DONE, null, null);
    }

    private final ClusterRepository clusters;

    private final ReservationLifecycle reservations;

    private final Timeline timeline;

    private final ClusterTransitions transitions;

    private final Clock clock;

    TeardownDecision(
            ClusterRepository clusters,
            ReservationLifecycle reservations,
            Timeline timeline,
            ClusterTransitions transitions,
            Clock clock) {
        this.clusters = clusters;
        this.reservations = reservations;
        this.timeline = timeline;
        this.transitions = transitions;
        this.clock = clock;
    }

    Plan plan(ClusterStep step, int attempt, Instant scheduledFor) {
        UUID id = step.reservationId();
        Cluster cluster = clusters.findForUpdate(id).orElse(null);
        if (cluster == null || !cluster.open()) {
            return Plan.DONE;
        }
        Instant now = clock.instant();
        Reservation reservation = reservations.find(id).orElseThrow();
        ReservationStatus status = reservation.status(now);
        boolean live = status != ReservationStatus.CANCELLED
                && status != ReservationStatus.FAILED
                && status != ReservationStatus.PREEMPTED;
        // The allocations say how long the cluster may keep its nodes: to the end of the window (extended or not),
        // to the end of a preempted reservation's notice, or not at all (cancelled, failed, preempted before it ran)
        Instant heldUntil = status == ReservationStatus.CANCELLED || status == ReservationStatus.FAILED
                ? null
                : reservations.holdings(id).stream()
                        .map(Holding::until)
                        .max(Instant::compareTo)
                        .orElse(null);
        if (heldUntil != null && scheduledFor.isBefore(heldUntil) && now.isBefore(heldUntil)) {
            clusters.reschedule(id, heldUntil);
            timeline.record(
                    id,
                    Timeline.TEARDOWN,
                    "POSTPONED",
                    cluster.state(),
                    attempt,
                    (live
                                    ? "Teardown waits for the end of the window, now "
                                    : "Teardown waits for the end of the preemption's notice, ")
                            + UtcText.of(heldUntil) + ".");
            return new Plan(Kind.POSTPONE, cluster, heldUntil);
        }
        return start(step, attempt, cluster, reservation, status, live);
    }

    /** The teardown starts: {@code DELETING}, after failing a reservation whose window ended before it was ready. */
    private Plan start(
            ClusterStep step,
            int attempt,
            Cluster cluster,
            Reservation reservation,
            ReservationStatus status,
            boolean live) {
        UUID id = reservation.id();
        Cluster current = cluster;
        String why = status == ReservationStatus.PREEMPTED
                ? "the reservation was preempted: its nodes are given up"
                : step.why();
        if (status == ReservationStatus.ACTIVE) {
            why = "the window ended";
        } else if (live && neverReady(reservation, status)) {
            why = "The window ended at " + reservation.endsAt() + " before the cluster was ready";
            reservations.markFailed(id, why);
            current = transitions.failed(current, why);
            timeline.record(
                    id,
                    Timeline.TEARDOWN,
                    "FAILED",
                    current.state(),
                    attempt,
                    why + ". The reservation failed: nothing is charged.");
        }
        current = transitions.tearingDown(current, why);
        timeline.record(
                id,
                Timeline.TEARDOWN,
                "STARTED",
                current.state(),
                attempt,
                (cluster.everBuilt() ? "Tearing down" : "Closing") + " (" + why + ").");
        return new Plan(cluster.everBuilt() ? Kind.REMOVE : Kind.NOTHING_BUILT, cluster, null);
    }

    /** The window is over and the cluster never became ready (provisioning still trying, or never started). */
    private static boolean neverReady(Reservation reservation, ReservationStatus status) {
        return status == ReservationStatus.CONFIRMED
                || status == ReservationStatus.PROVISIONING
                || (status == ReservationStatus.COMPLETED && reservation.progress() == null);
    }
}
