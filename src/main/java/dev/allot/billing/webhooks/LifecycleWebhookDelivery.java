package dev.allot.billing.webhooks;

import com.github.kagkarlsson.scheduler.task.TaskDescriptor;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import dev.allot.billing.budgets.WebhookDelivery;
import dev.allot.billing.config.BillingProperties;
import dev.allot.shared.outbound.OutboundHttp;
import java.util.Map;
import java.util.UUID;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Delivers a lifecycle event to a webhook exactly as budget webhooks are delivered ({@link WebhookDelivery}: the
 * same signature, outbound policy, generic errors, backoff and attempts), with {@code X-Allot-Event} besides.
 * Every attempt sends the same body under the same delivery id.
 */
@Configuration(proxyBeanMethods = false)
class LifecycleWebhookDelivery {

    static final TaskDescriptor<String> TASK = TaskDescriptor.of("billing-deliver-lifecycle-webhook", String.class);

    @Bean
    OneTimeTask<String> deliverLifecycleWebhook(
            LifecycleWebhooks webhooks, BillingProperties properties, OutboundHttp outbound) {
        return Tasks.oneTime(TASK)
                .onFailure(WebhookDelivery.retries(properties))
                .execute((instance, context) -> {
                    UUID id = UUID.fromString(instance.getData());
                    webhooks.startAttempt(id).ifPresent(attempt -> {
                        String error = WebhookDelivery.post(
                                outbound,
                                properties,
                                attempt.url(),
                                attempt.id(),
                                attempt.secret(),
                                attempt.body(),
                                Map.of("X-Allot-Event", attempt.event().name()));
                        boolean giveUp = attempt.attempts() >= properties.webhookAttempts();
                        webhooks.finishAttempt(id, error, giveUp);
                        if (error != null && !giveUp) {
                            throw new IllegalStateException("Lifecycle webhook delivery " + id + " failed: " + error);
                        }
                    });
                });
    }
}
