package dev.allot.billing.api;

import dev.allot.billing.budgets.Notification;
import dev.allot.billing.budgets.Notifications;
import dev.allot.shared.CursorPage;
import dev.allot.shared.ListQuery;
import dev.allot.shared.security.Caller;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Budget alerts and idle-reservation flags raised for the tenant, newest first, with their webhook delivery. */
@RestController
@RequestMapping("/api/v1/tenants/{tenant}/notifications")
class NotificationsController {

    private final Notifications notifications;

    NotificationsController(Notifications notifications) {
        this.notifications = notifications;
    }

    @GetMapping
    CursorPage<Notification> list(
            Caller caller,
            @PathVariable String tenant,
            @RequestParam(required = false) @Nullable Integer limit,
            @RequestParam(required = false) @Nullable String cursor,
            @RequestParam(required = false) @Nullable Integer page,
            @RequestParam(required = false) @Nullable Integer size) {
        return notifications.list(caller, tenant, ListQuery.of(page, size, limit, cursor, 2));
    }
}
