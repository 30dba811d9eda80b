package dev.allot.billing.ui;

import dev.allot.billing.budgets.Notifications;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.UiController;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/**
 * The notices about a reservation, as a warning on its page where its owner looks (the reservation page loads it
 * with {@code hx-get}, as it loads its cluster section): preempted and until when its nodes stay, a node out of
 * service, failed, idle. Nothing when there is none. The reservations list shows those of the last week.
 */
@UiController
class ReservationNotices {

    private final Notifications notifications;

    private final Clock clock;

    ReservationNotices(Notifications notifications, Clock clock) {
        this.notifications = notifications;
        this.clock = clock;
    }

    @GetMapping("/tenants/{tenant}/reservations/{id}/notices")
    String notices(Caller caller, Model model, @PathVariable String tenant, @PathVariable UUID id) {
        model.addAttribute("notices", NoticeView.of(notifications.about(caller, tenant, id), tenant));
        return "billing/notices :: reservation";
    }

    /** The reservations list's warning: the notices of the last week about any of the tenant's reservations. */
    @GetMapping("/tenants/{tenant}/reservations/notices")
    String recent(Caller caller, Model model, @PathVariable String tenant) {
        model.addAttribute(
                "notices",
                NoticeView.of(
                        notifications.aboutReservations(
                                caller, tenant, clock.instant().minus(Duration.ofDays(7))),
                        tenant));
        return "billing/notices :: recent";
    }
}
