package dev.allot.billing.ui;

import dev.allot.billing.Notice;
import dev.allot.billing.Notices;
import dev.allot.billing.budgets.Notifications;
import dev.allot.shared.CursorPage;
import dev.allot.shared.ListQuery;
import dev.allot.shared.PageQuery;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.UiController;
import dev.allot.tenancy.Tenancy;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The team's notices, newest first, each with its time in the viewer's zone and a link to the reservation it
 * concerns; those the user had not seen are marked new. Opening the first page marks every notice on it seen, so the
 * home page's count of unread notices goes back to none.
 */
@UiController
class NoticesPage {

    static final int PAGE_SIZE = 25;

    /** A notice as listed: new when the user had not seen it before this page was opened. */
    record Row(Notice notice, boolean unread) {}

    private final Notifications notifications;

    private final Tenancy tenancy;

    NoticesPage(Notifications notifications, Tenancy tenancy) {
        this.notifications = notifications;
        this.tenancy = tenancy;
    }

    @GetMapping("/tenants/{tenant}/notices")
    String list(
            Caller caller,
            Model model,
            @PathVariable String tenant,
            @RequestParam(required = false) @Nullable Integer page) {
        model.addAttribute("tenant", tenancy.readable(caller, tenant));
        int shown = page == null || page < 0 ? 0 : page;
        Instant seenBefore = notifications.seenUntil(caller, tenant);
        CursorPage<Row> notices = notifications
                .list(caller, tenant, new ListQuery(new PageQuery(shown, PAGE_SIZE), null))
                .map(n -> new Row(
                        Notices.notice(n), seenBefore == null || n.createdAt().isAfter(seenBefore)));
        List<Row> items = notices.items();
        if (shown == 0 && !items.isEmpty()) {
            notifications.seen(caller, tenant, items.getFirst().notice().createdAt());
        }
        model.addAttribute("section", "notices");
        model.addAttribute("notices", notices);
        model.addAttribute("lastPage", Math.max(0, (notices.totalItems() - 1) / PAGE_SIZE));
        return "billing/notice-list";
    }
}
