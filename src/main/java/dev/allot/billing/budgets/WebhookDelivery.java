package dev.allot.billing.budgets;

import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.TaskDescriptor;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import dev.allot.billing.config.BillingProperties;
import dev.allot.shared.outbound.OutboundHttp;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Delivers a notification to the tenant's webhook: {@code POST} of a JSON body with
 * {@code X-Allot-Signature: sha256=<hex HMAC-SHA256 of the exact body with the shared secret>} and
 * {@code X-Allot-Delivery: <notification id>} (deliveries are at least once: receivers dedupe on it).
 * A failure (no answer, or not 2xx) is retried by db-scheduler with exponential backoff, up to the configured
 * number of attempts, then marked FAILED.
 *
 * <p>The URL is checked again at each attempt, against what its host resolves to then, and the request goes to
 * exactly the checked address ({@link OutboundHttp}): redirects are not followed. The tenant sees only a generic
 * reason ("HTTP 500", "connection failed", "timed out", "refused: address not allowed"); the details are logged.
 */
@Configuration(proxyBeanMethods = false)
public class WebhookDelivery {

    static final TaskDescriptor<String> TASK = TaskDescriptor.of("billing-deliver-webhook", String.class);

    @Bean
    OneTimeTask<String> deliverWebhook(
            Notifications notifications, BillingProperties properties, OutboundHttp outbound) {
        return Tasks.oneTime(TASK).onFailure(retries(properties)).execute((instance, context) -> {
            UUID id = UUID.fromString(instance.getData());
            notifications.startAttempt(id).ifPresent(delivery -> {
                String error = send(
                        outbound,
                        properties,
                        delivery,
                        notifications.secretOf(delivery.tenantId()).orElse(""));
                boolean giveUp = delivery.attempts() >= properties.webhookAttempts();
                notifications.finishAttempt(id, error, giveUp, Instant.now());
                if (error != null && !giveUp) {
                    throw new IllegalStateException("Webhook delivery of " + id + " failed: " + error);
                }
            });
        });
    }

    private static @Nullable String send(
            OutboundHttp outbound, BillingProperties properties, Notifications.Delivery delivery, String secret) {
        return post(outbound, properties, delivery.url(), delivery.id(), secret, delivery.body(), Map.of());
    }

    /**
     * Every webhook's retry policy: exponential backoff from {@code allot.billing.webhook-backoff}, doubling, for
     * {@code allot.billing.webhook-attempts} attempts in all.
     */
    public static FailureHandler<String> retries(BillingProperties properties) {
        FailureHandler<String> backoff =
                new FailureHandler.ExponentialBackoffFailureHandler<>(properties.webhookBackoff(), 2.0);
        return new FailureHandler.MaxRetriesFailureHandler<>(properties.webhookAttempts() - 1, backoff);
    }

    /**
     * One signed delivery attempt, as every Allot webhook sends it: the JSON body, {@code X-Allot-Delivery} and
     * {@code X-Allot-Signature}, plus {@code headers}. Returns the generic error, or {@code null} when delivered.
     */
    public static @Nullable String post(
            OutboundHttp outbound,
            BillingProperties properties,
            String url,
            UUID deliveryId,
            String secret,
            String body,
            Map<String, String> headers) {
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.put("Content-Type", "application/json");
        all.put("X-Allot-Delivery", deliveryId.toString());
        all.put("X-Allot-Signature", "sha256=" + sign(secret, body));
        return outbound.post(
                        url,
                        all,
                        body.getBytes(StandardCharsets.UTF_8),
                        properties.webhookTimeout(),
                        "webhook delivery " + deliveryId)
                .error();
    }

    public static String sign(String secret, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
