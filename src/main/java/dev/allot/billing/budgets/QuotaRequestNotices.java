package dev.allot.billing.budgets;

import dev.allot.quota.QuotaRequestDecided;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.stereotype.Component;

/**
 * Tells a tenant that a platform admin decided its quota request: {@code QUOTA_REQUEST_DECIDED}, once per request,
 * POSTed to the tenant's notification webhook when one is set (its admins asked and wait for the answer).
 */
@Component
class QuotaRequestNotices {

    private final Notifications notifications;

    private final Clock clock;

    QuotaRequestNotices(Notifications notifications, Clock clock) {
        this.notifications = notifications;
        this.clock = clock;
    }

    @ApplicationModuleListener
    void on(QuotaRequestDecided decided) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("quotaRequestId", decided.requestId().toString());
        details.put("outcome", decided.outcome().name());
        if (decided.reason() != null) {
            details.put("reason", decided.reason());
        }
        notifications.tell(
                decided.tenant(),
                Notifications.Kind.QUOTA_REQUEST_DECIDED,
                "quota-request:" + decided.requestId(),
                "The quota request " + decided.requestId() + " was "
                        + decided.outcome().name().toLowerCase()
                        + (decided.reason() == null ? "." : ": " + decided.reason()),
                details,
                clock.instant());
    }
}
