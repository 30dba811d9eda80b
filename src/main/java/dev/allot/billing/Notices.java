package dev.allot.billing;

import dev.allot.billing.budgets.Notification;
import dev.allot.billing.budgets.Notifications;
import dev.allot.shared.security.Caller;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * A team's notices as the user reads them: those raised since the user last opened the notification list are
 * unread. The notification list itself is billing's page ({@code /tenants/{tenant}/notices}).
 */
@Service
public class Notices {

    /** How many notices the user has not seen, and the newest of them. */
    public record Unread(long count, List<Notice> latest) {}

    private final Notifications notifications;

    Notices(Notifications notifications) {
        this.notifications = notifications;
    }

    public Unread unread(Caller caller, String tenantSlug, int limit) {
        Notifications.Unread unread = notifications.unread(caller, tenantSlug, limit);
        return new Unread(
                unread.count(), unread.latest().stream().map(Notices::notice).toList());
    }

    /** The notice as pages show it. */
    public static Notice notice(Notification n) {
        return new Notice(n.id(), n.kind(), Notice.headline(n.kind()), n.message(), n.createdAt(), reservation(n));
    }

    private static @Nullable UUID reservation(Notification n) {
        var id = n.details().get("reservationId");
        if (id == null || !id.isString()) {
            return null;
        }
        try {
            return UUID.fromString(id.asString());
        } catch (IllegalArgumentException ex) {
            return null;
        }
    }
}
