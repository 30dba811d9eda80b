package dev.allot.billing.budgets;

import dev.allot.provisioning.NodeNotReplaced;
import java.time.Clock;
import java.util.Map;
import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.stereotype.Component;

/**
 * Tells a tenant that a node of its reservation was taken out of service and none could take its place: a
 * {@code NODE_NOT_REPLACED} notification (once per reservation and node), POSTed to the tenant's notification
 * webhook when one is set.
 */
@Component
class NodeReplacementNotices {

    private final Notifications notifications;

    private final Clock clock;

    NodeReplacementNotices(Notifications notifications, Clock clock) {
        this.notifications = notifications;
        this.clock = clock;
    }

    @ApplicationModuleListener
    void on(NodeNotReplaced failed) {
        String consequence = failed.live()
                ? "your cluster runs DEGRADED without it (its hours are not charged) until a node is free"
                : "the reservation still holds it; unless a node is freed before the window starts, provisioning fails "
                        + "and nothing is charged: cancel it or book another window";
        notifications.tell(
                failed.tenant(),
                Notifications.Kind.NODE_NOT_REPLACED,
                "node-not-replaced:" + failed.reservationId() + ":" + failed.hostname(),
                "Node " + failed.hostname() + " of reservation " + failed.reservationId() + " in pool " + failed.pool()
                        + " was taken out of service (" + failed.reason() + ") and no spare or free node can take its "
                        + "place: " + consequence + ".",
                Map.of(
                        "reservationId",
                        failed.reservationId().toString(),
                        "pool",
                        failed.pool(),
                        "node",
                        failed.hostname(),
                        "reason",
                        failed.reason(),
                        "live",
                        failed.live()),
                clock.instant());
    }
}
