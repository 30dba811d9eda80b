package dev.allot.billing.webhooks;

import dev.allot.booking.events.ReservationAwaitsApproval;
import dev.allot.booking.events.ReservationDecided;
import dev.allot.booking.events.ReservationDequeued;
import dev.allot.booking.events.ReservationFailed;
import dev.allot.booking.events.ReservationPreempted;
import dev.allot.booking.events.ReservationQueued;
import dev.allot.provisioning.ClusterReady;
import dev.allot.provisioning.ClusterTornDown;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.stereotype.Component;

/**
 * What lifecycle webhooks are told, from booking's and provisioning's events ({@code CONFIRMED} is enqueued by
 * billing's own reaction to a booking, {@code BookingEvents}) (after their commit; redelivered
 * after a crash, and enqueued at most once per webhook, event and reservation). A torn-down cluster counts as
 * {@code COMPLETED} only if it had been handed over: one that never was ended as {@code FAILED}, or was cancelled
 * before it was built.
 */
@Component
class LifecycleEvents {

    private final LifecycleWebhooks webhooks;

    private final Clock clock;

    LifecycleEvents(LifecycleWebhooks webhooks, Clock clock) {
        this.webhooks = webhooks;
        this.clock = clock;
    }

    @ApplicationModuleListener
    void on(ClusterReady ready) {
        webhooks.enqueue(
                ready.tenant(),
                LifecycleEvent.READY,
                ready.reservationId(),
                ready.readyAt(),
                Map.of(
                        "project",
                        ready.project(),
                        "pool",
                        ready.pool(),
                        "endsAt",
                        ready.endsAt().toString(),
                        "cluster",
                        Map.of(
                                "state",
                                "READY",
                                "orchestrator",
                                ready.orchestrator().name(),
                                "nodes",
                                ready.nodes())));
    }

    @ApplicationModuleListener
    void on(ReservationFailed failed) {
        webhooks.enqueue(
                failed.tenant(),
                LifecycleEvent.FAILED,
                failed.reservationId(),
                failed.failedAt(),
                Map.of("pool", failed.pool(), "reason", failed.reason(), "cluster", Map.of("state", "FAILED")));
    }

    @ApplicationModuleListener
    void on(ReservationAwaitsApproval waiting) {
        webhooks.enqueue(
                waiting.tenant(),
                LifecycleEvent.PENDING_APPROVAL,
                waiting.reservationId(),
                clock.instant(),
                Map.of(
                        "project",
                        waiting.project(),
                        "pool",
                        waiting.pool(),
                        "gpus",
                        waiting.gpus(),
                        "startsAt",
                        waiting.startsAt().toString(),
                        "endsAt",
                        waiting.endsAt().toString(),
                        "holdUntil",
                        waiting.holdUntil().toString()));
    }

    @ApplicationModuleListener
    void on(ReservationDecided decided) {
        Map<String, Object> details = new LinkedHashMap<>();
        if (decided.reason() != null) {
            details.put("reason", decided.reason());
        }
        webhooks.enqueue(
                decided.tenant(),
                LifecycleEvent.valueOf(decided.outcome().name()),
                decided.reservationId(),
                decided.at(),
                details);
    }

    @ApplicationModuleListener
    void on(ReservationQueued queued) {
        webhooks.enqueue(
                queued.tenant(),
                LifecycleEvent.QUEUED,
                queued.reservationId(),
                queued.at(),
                Map.of(
                        "project",
                        queued.project(),
                        "pool",
                        queued.pool(),
                        "gpus",
                        queued.gpus(),
                        "duration",
                        queued.duration().toString(),
                        "startWindow",
                        Map.of(
                                "earliest",
                                queued.earliestStart().toString(),
                                "latest",
                                queued.latestStart().toString())));
    }

    @ApplicationModuleListener
    void on(ReservationDequeued dequeued) {
        Map<String, Object> details = new LinkedHashMap<>();
        if (dequeued.reason() != null) {
            details.put("reason", dequeued.reason());
        }
        webhooks.enqueue(
                dequeued.tenant(),
                dequeued.outcome() == ReservationDequeued.Outcome.BOOKED
                        ? LifecycleEvent.DEQUEUED
                        : LifecycleEvent.EXPIRED,
                dequeued.reservationId(),
                dequeued.at(),
                details);
    }

    @ApplicationModuleListener
    void on(ReservationPreempted preempted) {
        webhooks.enqueue(
                preempted.tenant(),
                LifecycleEvent.PREEMPTED,
                preempted.reservationId(),
                preempted.at(),
                Map.of(
                        "pool",
                        preempted.pool(),
                        "preemption",
                        Map.of("at", preempted.at().toString(), "reason", preempted.reason()),
                        "nodesHeldUntil",
                        preempted.freedFrom().toString()));
    }

    @ApplicationModuleListener
    void on(ClusterTornDown tornDown) {
        if (tornDown.readyAt() == null) {
            return;
        }
        webhooks.enqueue(
                tornDown.tenant(),
                LifecycleEvent.COMPLETED,
                tornDown.reservationId(),
                tornDown.tornDownAt(),
                Map.of(
                        "pool",
                        tornDown.pool(),
                        "cluster",
                        Map.of("state", tornDown.complete() ? "DELETED" : "FAILED")));
    }
}
