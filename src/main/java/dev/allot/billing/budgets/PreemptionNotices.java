package dev.allot.billing.budgets;

import dev.allot.booking.events.ReservationPreempted;
import java.time.Clock;
import java.util.Map;
import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.stereotype.Component;

/**
 * Tells a tenant its reservation was preempted: a {@code RESERVATION_PREEMPTED} notification (once per reservation),
 * POSTed to the tenant's notification webhook when one is set. Like the reservation's {@code preemption}, it never
 * names the tenant whose guaranteed booking took the nodes.
 */
@Component
class PreemptionNotices {

    private final Notifications notifications;

    private final Clock clock;

    PreemptionNotices(Notifications notifications, Clock clock) {
        this.notifications = notifications;
        this.clock = clock;
    }

    @ApplicationModuleListener
    void on(ReservationPreempted preempted) {
        boolean running = preempted.freedFrom().isAfter(preempted.at());
        notifications.tell(
                preempted.tenant(),
                Notifications.Kind.RESERVATION_PREEMPTED,
                "preempted:" + preempted.reservationId(),
                "Reservation " + preempted.reservationId() + " in pool " + preempted.pool() + " was preempted: "
                        + preempted.reason()
                        + (running
                                ? ". Its nodes stay yours until " + preempted.freedFrom()
                                        + "; save your work before then."
                                : "."),
                Map.of(
                        "reservationId",
                        preempted.reservationId().toString(),
                        "pool",
                        preempted.pool(),
                        "preemption",
                        Map.of("at", preempted.at().toString(), "reason", preempted.reason()),
                        "nodesHeldUntil",
                        preempted.freedFrom().toString()),
                clock.instant());
    }
}
