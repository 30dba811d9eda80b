package dev.allot.provisioning.lifecycle;

import dev.allot.booking.Holding;
import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.booking.ReservationStatus;
import dev.allot.provisioning.ClusterTornDown;
import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterDriverException;
import dev.allot.provisioning.driver.ClusterDrivers;
import dev.allot.provisioning.driver.ClusterStatus;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.shared.UtcText;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The teardown step, at the end of the window, after a cancellation, or to clean up after a failure: the cluster
 * goes {@code DELETING} → {@code DELETED} (a failed one stays {@code FAILED}), the reservation {@code ACTIVE} →
 * {@code ENDING} → {@code COMPLETED}. It is done only when the driver finds nothing left. A teardown that comes
 * before the reservation's allocations end (its window was extended after the step was scheduled, or a preempted
 * reservation's notice has not run out) waits for that end, read from the allocations, never from a copy.
 */
@Component
public class Teardown {

    private enum Kind {
        DONE,
        POSTPONE,
        NOTHING_BUILT,
        REMOVE
    }

    private record Plan(
            Kind kind, @Nullable Cluster cluster, @Nullable Instant postponeTo) {

        static final Plan DONE = new Plan(Kind.DONE, null, null);
    }

    private final ClusterRepository clusters;

    private final ReservationLifecycle reservations;

    private final ClusterDrivers drivers;

    private final Failures failures;

    private final ClusterSchedule schedule;

    private final Timeline timeline;

    private final TransactionTemplate transactions;

    private final ApplicationEventPublisher events;

    private final Clock clock;

    private final ClusterVolumes volumes;

    private final ClusterTransitions transitions;

    Teardown(
            ClusterRepository clusters,
            ReservationLifecycle reservations,
            ClusterDrivers drivers,
            Failures failures,
            ClusterSchedule schedule,
            Timeline timeline,
            TransactionTemplate transactions,
            ApplicationEventPublisher events,
            Clock clock,
            ClusterVolumes volumes,
            ClusterTransitions transitions) {
        this.transitions = transitions;
        this.volumes = volumes;
        this.clusters = clusters;
        this.reservations = reservations;
        this.drivers = drivers;
        this.failures = failures;
        this.schedule = schedule;
        this.timeline = timeline;
        this.transactions = transactions;
        this.events = events;
        this.clock = clock;
    }

    /** Runs the step; answers when to run it again if it came before the end of the window, else {@code null}. */
    public @Nullable Instant run(ClusterStep step, int attempt, Instant scheduledFor) {
        Plan plan = transactions.execute(status -> plan(step, attempt, scheduledFor));
        String volumesDone = "";
        switch (plan.kind()) {
            case DONE -> {
                return null;
            }
            case POSTPONE -> {
                return plan.postponeTo();
            }
            case REMOVE -> {
                Cluster cluster = Objects.requireNonNull(plan.cluster(), "a plan to remove has its cluster");
                try {
                    ClusterDriver driver = drivers.forPool(cluster.pool());
                    driver.teardown(cluster.ref());
                    volumesDone = volumes.removeAtTeardown(driver, cluster.ref());
                    ClusterStatus left = driver.status(cluster.ref());
                    if (left.phase() != ClusterStatus.Phase.ABSENT) {
                        throw new DriverFailedException(
                                "Teardown is not finished: the driver finds the cluster " + left.phase() + " on "
                                        + String.join(", ", left.nodes()),
                                true);
                    }
                } catch (ClusterDriverException ex) {
                    if (ex.retryable()) {
                        throw ex;
                    }
                    failures.giveUpTeardown(step.reservationId(), ex.getMessage(), attempt);
                    return null;
                }
            }
            case NOTHING_BUILT -> {}
        }
        finish(step.reservationId(), attempt, volumesDone);
        return null;
    }

    private Plan plan(ClusterStep step, int attempt, Instant scheduledFor) {
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

    private void finish(UUID id, int attempt, String volumesDone) {
        transactions.executeWithoutResult(status -> {
            Cluster cluster = clusters.findForUpdate(id).orElseThrow();
            if (!cluster.open()) {
                return;
            }
            Instant now = clock.instant();
            boolean failed = transitions.tornDown(cluster).state() == ClusterState.FAILED;
            clusters.close(id, true, now);
            volumes.tornDown(id);
            timeline.record(
                    id,
                    Timeline.TEARDOWN,
                    "SUCCEEDED",
                    failed ? ClusterState.FAILED : ClusterState.DELETED,
                    attempt,
                    !cluster.everBuilt()
                            ? "Nothing had been built: nothing to remove."
                            : failed
                                    ? "Cleaned up after the failure: the driver finds nothing left."
                                    : "Torn down: the driver finds nothing left." + volumesDone);
            if (cluster.everBuilt()) {
                events.publishEvent(
                        new ClusterTornDown(id, cluster.tenant(), cluster.pool(), cluster.readyAt(), now, true));
            }
            schedule.cancel(ClusterSchedule.PROVISION, id);
        });
    }
}
