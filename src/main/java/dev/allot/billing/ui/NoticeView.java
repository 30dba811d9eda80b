package dev.allot.billing.ui;

import dev.allot.billing.Notice;
import dev.allot.billing.budgets.Notification;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A notice as a page shows it: what happened, in a word or two, the notice itself, and the page of the reservation
 * it concerns (null when it concerns none, as a budget alert).
 */
record NoticeView(
        String headline, Notification notice, @Nullable String reservationPage) {

    static List<NoticeView> of(List<Notification> notices, String tenantSlug) {
        return notices.stream()
                .map(n -> new NoticeView(Notice.headline(n.kind()), n, page(n, tenantSlug)))
                .toList();
    }

    private static @Nullable String page(Notification notice, String tenantSlug) {
        var reservation = notice.details().get("reservationId");
        return reservation == null || !reservation.isString()
                ? null
                : "/tenants/" + tenantSlug + "/reservations/" + reservation.asString();
    }
}
