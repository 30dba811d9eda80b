package dev.allot.billing.budgets;

import dev.allot.booking.events.ReservationAwaitsApproval;
import dev.allot.booking.events.ReservationDecided;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.stereotype.Component;

/**
 * Tells a tenant of its bookings' approvals: {@code APPROVAL_REQUESTED} when one waits (its tenant admins decide
 * it), {@code APPROVAL_DECIDED} when it was approved, denied or expired (once per reservation each), POSTed to the
 * tenant's notification webhook when one is set.
 */
@Component
class ApprovalNotices {

    private final Notifications notifications;

    private final Clock clock;

    ApprovalNotices(Notifications notifications, Clock clock) {
        this.notifications = notifications;
        this.clock = clock;
    }

    @ApplicationModuleListener
    void on(ReservationAwaitsApproval waiting) {
        notifications.tell(
                waiting.tenant(),
                Notifications.Kind.APPROVAL_REQUESTED,
                "approval:" + waiting.reservationId(),
                waiting.requestedBy() + " booked " + waiting.gpus() + " GPUs of " + waiting.pool() + " from "
                        + waiting.startsAt() + " to " + waiting.endsAt() + " for project " + waiting.project()
                        + "; it waits for a tenant admin's approval until " + waiting.holdUntil() + ".",
                Map.of(
                        "reservationId",
                        waiting.reservationId().toString(),
                        "pool",
                        waiting.pool(),
                        "project",
                        waiting.project(),
                        "requestedBy",
                        waiting.requestedBy(),
                        "holdUntil",
                        waiting.holdUntil().toString()),
                clock.instant());
    }

    @ApplicationModuleListener
    void on(ReservationDecided decided) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("reservationId", decided.reservationId().toString());
        details.put("outcome", decided.outcome().name());
        if (decided.reason() != null) {
            details.put("reason", decided.reason());
        }
        notifications.tell(
                decided.tenant(),
                Notifications.Kind.APPROVAL_DECIDED,
                "decided:" + decided.reservationId(),
                "Reservation " + decided.reservationId() + " was "
                        + decided.outcome().name().toLowerCase()
                        + (decided.reason() == null ? "." : ": " + decided.reason()),
                details,
                clock.instant());
    }
}
