package dev.allot.provisioning.lifecycle;

import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.booking.ReservationStatus;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Keeps every cluster moving: each open cluster must have the step its state calls for scheduled (a lost
 * scheduling, a step dropped by hand, a race the steps lost), and building must finish within
 * {@code stuck-after}. The watchdog schedules what is missing, or gives up on a build that is stuck, and says
 * why in the cluster's timeline. A step whose replica died is revived by db-scheduler itself (heartbeats).
 */
@Component
public class Watchdog {

    private static final Logger log = LoggerFactory.getLogger(Watchdog.class);

    private static final int BATCH = 500;

    private final ClusterRepository clusters;

    private final ReservationLifecycle reservations;

    private final ClusterSchedule schedule;

    private final Failures failures;

    private final Timeline timeline;

    private final LifecycleProperties properties;

    private final TransactionTemplate transactions;

    private final Clock clock;

    Watchdog(
            ClusterRepository clusters,
            ReservationLifecycle reservations,
            ClusterSchedule schedule,
            Failures failures,
            Timeline timeline,
            LifecycleProperties properties,
            TransactionTemplate transactions,
            Clock clock) {
        this.clusters = clusters;
        this.reservations = reservations;
        this.schedule = schedule;
        this.failures = failures;
        this.timeline = timeline;
        this.properties = properties;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** Checks every cluster that may need it (re-checked under the cluster's lock); answers how many it moved. */
    public int run() {
        int acted = 0;
        Instant now = clock.instant();
        for (Cluster cluster : clusters.suspects(now, now.minus(properties.stuckAfter()), BATCH)) {
            try {
                if (Boolean.TRUE.equals(transactions.execute(status -> check(cluster.reservationId())))) {
                    acted++;
                }
            } catch (RuntimeException ex) {
                log.warn("Watchdog could not check the cluster of reservation {}", cluster.reservationId(), ex);
            }
        }
        return acted;
    }

    private boolean check(UUID id) {
        Cluster cluster = clusters.findForUpdate(id).orElse(null);
        if (cluster == null || !cluster.open()) {
            return false;
        }
        Instant now = clock.instant();
        Reservation reservation = reservations.find(id).orElseThrow();
        ReservationStatus status = reservation.status(now);
        boolean provisionScheduled =
                schedule.find(ClusterSchedule.PROVISION, id).isPresent();
        boolean teardownScheduled = schedule.find(ClusterSchedule.TEARDOWN, id).isPresent();
        boolean live = status != ReservationStatus.CANCELLED
                && status != ReservationStatus.FAILED
                && status != ReservationStatus.PREEMPTED;
        ClusterState state = cluster.state();
        if (!live || state == ClusterState.DELETING || state == ClusterState.FAILED) {
            if (teardownScheduled) {
                return false;
            }
            return act(
                    id,
                    state,
                    () -> schedule.teardown(id, now, "the watchdog found no teardown"),
                    "The reservation is " + status + " and the cluster " + state
                            + ", but no teardown was scheduled: teardown scheduled now.");
        }
        if (state.isBuilding()
                && Objects.requireNonNull(cluster.provisioningStartedAt(), "a building cluster has started")
                        .isBefore(now.minus(properties.stuckAfter()))) {
            failures.giveUpBuilding(
                    id,
                    "Provisioning did not finish within " + properties.stuckAfter() + " (in " + state + " since "
                            + cluster.stateChangedAt() + ")",
                    null,
                    Timeline.WATCHDOG);
            return true;
        }
        boolean acted = false;
        if (!teardownScheduled) {
            Instant at = later(now, cluster.endsAt());
            acted = act(
                    id,
                    state,
                    () -> schedule.teardown(id, at, "the window ends"),
                    "No teardown was scheduled: scheduled for " + at + ".");
        }
        if ((state == ClusterState.PENDING || state.isBuilding()) && !provisionScheduled) {
            Instant at = later(now, cluster.provisionAt());
            acted |= act(
                    id,
                    state,
                    () -> schedule.provision(id, at, "the watchdog found no provisioning"),
                    state == ClusterState.PENDING
                            ? "Provisioning was not scheduled: scheduled for " + at + "."
                            : "Provisioning stopped in " + state + " with nothing to resume it: resumed now.");
        }
        return acted;
    }

    private boolean act(UUID id, ClusterState state, Runnable action, String why) {
        action.run();
        timeline.record(id, Timeline.WATCHDOG, "ACTED", state, null, why);
        log.info("Watchdog, reservation {}: {}", id, why);
        return true;
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
