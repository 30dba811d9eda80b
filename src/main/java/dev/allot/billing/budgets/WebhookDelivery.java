package dev.allot.billing.budgets;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.TaskDescriptor;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import dev.allot.billing.metering.BillingProperties;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Delivers a notification to the tenant's webhook: {@code POST} of a JSON body with
 * {@code X-Allot-Signature: sha256=<hex HMAC-SHA256 of the exact body with the shared secret>} and
 * {@code X-Allot-Delivery: <notification id>} (deliveries are at least once: receivers dedupe on it).
 * A failure (no answer, or not 2xx) is retried by db-scheduler with exponential backoff, up to the configured
 * number of attempts, then marked FAILED.
 */
@Configuration(proxyBeanMethods = false)
public class WebhookDelivery {

	static final TaskDescriptor<String> TASK = TaskDescriptor.of("billing-deliver-webhook", String.class);

	private static final Logger log = LoggerFactory.getLogger(WebhookDelivery.class);

	@Bean
	OneTimeTask<String> deliverWebhook(Notifications notifications, BillingProperties properties) {
		HttpClient http = HttpClient.newBuilder()
			.connectTimeout(properties.webhookTimeout())
			.followRedirects(HttpClient.Redirect.NEVER)
			.build();
		FailureHandler<String> backoff = new FailureHandler.ExponentialBackoffFailureHandler<>(
				properties.webhookBackoff(), 2.0);
		return Tasks.oneTime(TASK)
			.onFailure(new FailureHandler.MaxRetriesFailureHandler<>(properties.webhookAttempts() - 1, backoff))
			.execute((instance, context) -> {
				UUID id = UUID.fromString(instance.getData());
				notifications.startAttempt(id).ifPresent(delivery -> {
					String error = send(http, properties, delivery,
							notifications.secretOf(delivery.tenantId()).orElse(""));
					boolean giveUp = delivery.attempts() >= properties.webhookAttempts();
					notifications.finishAttempt(id, error, giveUp, Instant.now());
					if (error != null && !giveUp) {
						throw new IllegalStateException("Webhook delivery of " + id + " failed: " + error);
					}
				});
			});
	}

	private static @Nullable String send(HttpClient http, BillingProperties properties, Notifications.Delivery delivery,
			String secret) {
		try {
			HttpResponse<Void> response = http.send(HttpRequest.newBuilder(URI.create(delivery.url()))
				.timeout(properties.webhookTimeout())
				.header("Content-Type", "application/json")
				.header("X-Allot-Delivery", delivery.id().toString())
				.header("X-Allot-Signature", "sha256=" + sign(secret, delivery.body()))
				.POST(HttpRequest.BodyPublishers.ofString(delivery.body(), StandardCharsets.UTF_8))
				.build(), HttpResponse.BodyHandlers.discarding());
			if (response.statusCode() / 100 == 2) {
				return null;
			}
			return "HTTP " + response.statusCode();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "interrupted";
		}
		catch (Exception ex) {
			log.info("Webhook delivery {} failed: {}", delivery.id(), ex.toString());
			return ex.getClass().getSimpleName();
		}
	}

	public static String sign(String secret, String body) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
			return HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
