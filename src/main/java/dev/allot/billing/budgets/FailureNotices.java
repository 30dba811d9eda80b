package dev.allot.billing.budgets;

import dev.allot.booking.events.ReservationFailed;
import java.time.Clock;
import java.util.Map;
import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.stereotype.Component;

/**
 * Tells a tenant its reservation failed (its cluster could not be built: say its nodes were still held by another
 * cluster past the start's grace): a {@code RESERVATION_FAILED} notification, once per reservation, POSTed to the
 * tenant's notification webhook when one is set, beside the lifecycle webhook's {@code FAILED} event.
 */
@Component
class FailureNotices {

    private final Notifications notifications;

    private final Clock clock;

    FailureNotices(Notifications notifications, Clock clock) {
        this.notifications = notifications;
        this.clock = clock;
    }

    @ApplicationModuleListener
    void on(ReservationFailed failed) {
        notifications.tell(
                failed.tenant(),
                Notifications.Kind.RESERVATION_FAILED,
                "failed:" + failed.reservationId(),
                "Reservation " + failed.reservationId() + " in pool " + failed.pool() + " failed: " + failed.reason()
                        + ". Its nodes are released and nothing is charged.",
                Map.of(
                        "reservationId",
                        failed.reservationId().toString(),
                        "pool",
                        failed.pool(),
                        "reason",
                        failed.reason(),
                        "failedAt",
                        failed.failedAt().toString()),
                clock.instant());
    }
}
