package dev.allot.provisioning.lifecycle;

import dev.allot.booking.ReservationLifecycle;
import dev.allot.booking.ReservationStatus;
import dev.allot.provisioning.ClusterTornDown;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Giving up, when retries are used up, a failure is permanent, or the watchdog finds a step stuck. Each locks the
 * cluster first (every lifecycle transaction does, then the reservation), and gives up at most once.
 */
@Component
public class Failures {

    private final ClusterRepository clusters;

    private final ReservationLifecycle reservations;

    private final ClusterSchedule schedule;

    private final Timeline timeline;

    private final TransactionTemplate transactions;

    private final ApplicationEventPublisher events;

    private final Clock clock;

    private final ClusterTransitions transitions;

    Failures(
            ClusterRepository clusters,
            ReservationLifecycle reservations,
            ClusterSchedule schedule,
            Timeline timeline,
            TransactionTemplate transactions,
            ApplicationEventPublisher events,
            Clock clock,
            ClusterTransitions transitions) {
        this.transitions = transitions;
        this.clusters = clusters;
        this.reservations = reservations;
        this.schedule = schedule;
        this.timeline = timeline;
        this.transactions = transactions;
        this.events = events;
        this.clock = clock;
    }

    /**
     * Building gave up: the reservation fails (its nodes released, nothing charged), the cluster is {@code FAILED}
     * with the reason, and a cleanup removes whatever was built. A cluster already handed over is not failed: it is
     * {@code DEGRADED} (an update after an extension failed) and stays usable.
     */
    void giveUpBuilding(UUID reservationId, String reason, @Nullable Integer attempt, String step) {
        transactions.executeWithoutResult(status -> {
            Cluster cluster = clusters.findForUpdate(reservationId).orElse(null);
            if (cluster == null
                    || !cluster.open()
                    || cluster.state() == ClusterState.FAILED
                    || cluster.state() == ClusterState.DELETING
                    || cluster.state() == ClusterState.DELETED) {
                return;
            }
            Instant now = clock.instant();
            boolean cancelled =
                    reservations.find(reservationId).orElseThrow().status(now) == ReservationStatus.CANCELLED;
            if (transitions.gaveUp(cluster, reason).state() == ClusterState.DEGRADED) {
                timeline.record(
                        reservationId,
                        step,
                        "GAVE_UP",
                        ClusterState.DEGRADED,
                        attempt,
                        "Gave up updating the cluster: " + reason + ". It stays usable until the window ends.");
                return;
            }
            if (!cancelled) {
                reservations.markFailed(reservationId, reason);
            }
            timeline.record(
                    reservationId,
                    step,
                    "GAVE_UP",
                    ClusterState.FAILED,
                    attempt,
                    "Gave up: " + reason + ". The reservation failed: its nodes are released and nothing is charged.");
            schedule.cancel(ClusterSchedule.PROVISION, reservationId);
            schedule.teardown(reservationId, now, "clean up after the failure");
        });
    }

    /** Teardown gave up: the cluster is closed as {@code FAILED}, and what remains is for an admin to remove. */
    void giveUpTeardown(UUID reservationId, String reason, @Nullable Integer attempt) {
        transactions.executeWithoutResult(status -> {
            Cluster cluster = clusters.findForUpdate(reservationId).orElse(null);
            if (cluster == null || !cluster.open()) {
                return;
            }
            Instant now = clock.instant();
            String why = "Teardown gave up: " + reason + ". What remains of the cluster on pool " + cluster.pool()
                    + " must be removed by an admin.";
            transitions.failed(cluster, why);
            clusters.close(reservationId, false, now);
            timeline.record(reservationId, Timeline.TEARDOWN, "GAVE_UP", ClusterState.FAILED, attempt, why);
            if (cluster.everBuilt()) {
                events.publishEvent(new ClusterTornDown(
                        reservationId, cluster.tenant(), cluster.pool(), cluster.readyAt(), now, false));
            }
        });
    }
}
