package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.testhelper.ManualScheduler;
import com.github.kagkarlsson.scheduler.testhelper.SettableClock;
import com.github.kagkarlsson.scheduler.testhelper.TestHelper;
import com.sun.net.httpserver.HttpServer;
import dev.allot.billing.budgets.WebhookDelivery;
import dev.allot.provisioning.LifecycleTest;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.fake.FakeDriver;
import dev.allot.support.Api;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Lifecycle webhooks for CI: a tenant admin registers one, and the tenant's reservations and clusters send it
 * signed CONFIRMED, READY, COMPLETED and FAILED events, retried under the same delivery id, with a failure visible
 * on the webhook.
 * The cluster lifecycle runs on the default (fake) driver, driven by {@link LifecycleTest}; this context's poller
 * is off, so deliveries run through a db-scheduler {@code ManualScheduler} of their own, on the real clock.
 */
class LifecycleWebhookTests extends LifecycleTest {

    private static final String SECRET = "a-ci-pipeline-shared-secret";

    private record Received(String body, String signature, String delivery, String event) {}

    @Autowired
    private List<Task<?>> tasks;

    @Autowired
    private FakeDriver fake;

    private final JsonMapper json = JsonMapper.builder().build();

    private SettableClock deliveryClock;

    private ManualScheduler deliveries;

    private HttpServer server;

    @BeforeEach
    void deliveryScheduler() {
        fake.reset();
        deliveryClock = new SettableClock();
        deliveryClock.set(Instant.now());
        deliveries = TestHelper.createManualScheduler(
                        dataSource,
                        tasks.stream()
                                .filter(t -> t.getName().equals("billing-deliver-lifecycle-webhook"))
                                .toList())
                .clock(deliveryClock)
                .build();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** A receiver on 127.0.0.1 answering {@code failFirst} HTTP 500s, then 204; returns every request it got. */
    private List<Received> receiver(int failFirst) throws IOException {
        List<Received> received = new CopyOnWriteArrayList<>();
        AtomicInteger requests = new AtomicInteger();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/hook", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(new Received(
                    body,
                    exchange.getRequestHeaders().getFirst("X-Allot-Signature"),
                    exchange.getRequestHeaders().getFirst("X-Allot-Delivery"),
                    exchange.getRequestHeaders().getFirst("X-Allot-Event")));
            exchange.sendResponseHeaders(requests.incrementAndGet() <= failFirst ? 500 : 204, -1);
            exchange.close();
        });
        server.start();
        return received;
    }

    private String hookUrl() {
        return "http://" + WEBHOOK_HOST + ":" + server.getAddress().getPort() + "/hook";
    }

    private String webhooks(Setup s) {
        return "/api/v1/tenants/" + s.tenant() + "/webhooks";
    }

    private Api.Response register(Setup s, String token, String url, List<String> events) {
        Map<String, Object> body = new HashMap<>(Map.of("url", url, "secret", SECRET));
        if (events != null) {
            body.put("events", events);
        }
        return api.post(webhooks(s), token, body);
    }

    /** Runs due deliveries until the receiver has heard {@code count} requests of the event. */
    private List<Received> awaitReceived(List<Received> received, String event, int count) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            // deliveries are scheduled on the real clock, now
            if (deliveryClock.now().isBefore(Instant.now())) {
                deliveryClock.set(Instant.now());
            }
            deliveries.runAnyDueExecutions();
            return received.stream().filter(r -> event.equals(r.event())).count() >= count;
        });
        return received.stream().filter(r -> event.equals(r.event())).toList();
    }

    @Test
    void aRegisteredWebhookIsSentSignedConfirmedThenReadyEvents() throws IOException {
        List<Received> received = receiver(0);
        Setup s = fleet(1);
        String admin = tenantToken(s.tenant(), "TENANT_ADMIN");

        Api.Response created = register(s, admin, hookUrl(), null);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.body()).doesNotContain(SECRET);
        assertThat(created.json().get("events").valueStream().map(JsonNode::asString))
                .containsExactly(
                        "CONFIRMED",
                        "PROVISIONING",
                        "READY",
                        "DEGRADED",
                        "PREEMPTED",
                        "COMPLETED",
                        "FAILED",
                        "PENDING_APPROVAL",
                        "APPROVED",
                        "DENIED",
                        "EXPIRED",
                        "QUEUED",
                        "DEQUEUED");
        assertThat(created.json().get("lastDelivery").isNull()).isTrue();
        String location = created.header("Location");
        assertThat(location)
                .isEqualTo(webhooks(s) + "/" + created.json().get("id").asString());
        assertThat(api.get(location, s.token()).status()).isEqualTo(200);
        assertThat(jdbc.sql("SELECT count(*) FROM audit_event WHERE action = 'webhook.created' AND object_id = ?")
                        .param(created.json().get("id").asString())
                        .query(Long.class)
                        .single())
                .isEqualTo(1);

        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 8, start, hour(4), "SLURM");

        Received confirmed = awaitReceived(received, "CONFIRMED", 1).getFirst();
        assertThat(confirmed.signature()).isEqualTo("sha256=" + WebhookDelivery.sign(SECRET, confirmed.body()));
        JsonNode body = json.readTree(confirmed.body());
        assertThat(body.get("id").asString()).isEqualTo(confirmed.delivery());
        assertThat(body.get("event").asString()).isEqualTo("CONFIRMED");
        assertThat(body.get("tenant").asString()).isEqualTo(s.tenant());
        assertThat(body.get("reservationId").asString()).isEqualTo(id);
        assertThat(body.get("cluster").get("state").asString()).isEqualTo("PENDING");

        runDueAt(start.minus(Duration.ofMinutes(15)));
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("READY");

        Received ready = awaitReceived(received, "READY", 1).getFirst();
        assertThat(ready.signature()).isEqualTo("sha256=" + WebhookDelivery.sign(SECRET, ready.body()));
        assertThat(ready.delivery()).isNotEqualTo(confirmed.delivery());
        JsonNode readyBody = json.readTree(ready.body());
        assertThat(readyBody.get("reservationId").asString()).isEqualTo(id);
        assertThat(readyBody.get("cluster").get("state").asString()).isEqualTo("READY");

        await().untilAsserted(() -> {
            JsonNode last = api.get(location, s.token()).json().get("lastDelivery");
            assertThat(last.get("event").asString()).isEqualTo("READY");
            assertThat(last.get("status").asString()).isEqualTo("DELIVERED");
            assertThat(last.get("error").isNull()).isTrue();
        });

        runDueAt(hour(4));
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("DELETED");
        Received completed = awaitReceived(received, "COMPLETED", 1).getFirst();
        assertThat(completed.signature()).isEqualTo("sha256=" + WebhookDelivery.sign(SECRET, completed.body()));
        assertThat(json.readTree(completed.body()).get("cluster").get("state").asString())
                .isEqualTo("DELETED");
        assertThat(received).extracting(Received::event).containsExactly("CONFIRMED", "READY", "COMPLETED");
        assertThat(api.get(location + "/deliveries", s.token())
                        .json()
                        .get("items")
                        .valueStream()
                        .map(d -> d.get("event").asString() + " "
                                + d.get("status").asString()))
                .containsExactlyInAnyOrder("CONFIRMED DELIVERED", "READY DELIVERED", "COMPLETED DELIVERED");
    }

    @Test
    void aFailedProvisioningIsSentAsFailedWithItsReason() throws IOException {
        List<Received> received = receiver(0);
        Setup s = fleet(1);
        assertThat(register(s, tenantToken(s.tenant(), "TENANT_ADMIN"), hookUrl(), List.of("FAILED", "READY"))
                        .status())
                .isEqualTo(201);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 8, start, hour(5), "KUBERNETES");
        fake.failNext(1, () -> new DriverFailedException("no quota for the namespace", false));

        runDueAt(start.minus(Duration.ofMinutes(15)));

        Received failed = awaitReceived(received, "FAILED", 1).getFirst();
        JsonNode body = json.readTree(failed.body());
        assertThat(body.get("reservationId").asString()).isEqualTo(id);
        assertThat(body.get("cluster").get("state").asString()).isEqualTo("FAILED");
        assertThat(body.get("reason").asString()).isNotBlank();
        assertThat(received).extracting(Received::event).containsExactly("FAILED");
    }

    @Test
    void aFailedDeliveryIsVisibleAndRetriedUnderTheSameDeliveryId() throws IOException {
        List<Received> received = receiver(1);
        Setup s = fleet(1);
        Api.Response created = register(s, tenantToken(s.tenant(), "TENANT_ADMIN"), hookUrl(), List.of("CONFIRMED"));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.json().get("events").valueStream().map(JsonNode::asString))
                .containsExactly("CONFIRMED");
        String location = created.header("Location");

        String id = bookAndAwaitSchedule(s, 8, hour(3), hour(4), "SLURM");
        Received failed = awaitReceived(received, "CONFIRMED", 1).getFirst();

        await().untilAsserted(() -> {
            JsonNode last = api.get(location, s.token()).json().get("lastDelivery");
            assertThat(last.get("status").asString()).isEqualTo("PENDING");
            assertThat(last.get("error").asString()).isEqualTo("HTTP 500");
        });
        JsonNode pending = api.get(location + "/deliveries", tenantToken(s.tenant(), "VIEWER"))
                .json();
        assertThat(pending.get("totalItems").asInt()).isEqualTo(1);
        assertThat(pending.get("items").get(0).get("id").asString()).isEqualTo(failed.delivery());
        assertThat(pending.get("items").get(0).get("reservationId").asString()).isEqualTo(id);
        assertThat(pending.get("items").get(0).get("attempts").asInt()).isEqualTo(1);
        assertThat(pending.get("items").get(0).get("error").asString()).isEqualTo("HTTP 500");

        // The backoff has passed.
        deliveryClock.set(Instant.now().plus(Duration.ofMinutes(5)));
        List<Received> both = awaitReceived(received, "CONFIRMED", 2);
        assertThat(both.get(1).delivery()).isEqualTo(failed.delivery());
        assertThat(both.get(1).body()).isEqualTo(failed.body());

        await().untilAsserted(() -> {
            JsonNode delivered = api.get(location + "/deliveries", s.token())
                    .json()
                    .get("items")
                    .get(0);
            assertThat(delivered.get("status").asString()).isEqualTo("DELIVERED");
            assertThat(delivered.get("attempts").asInt()).isEqualTo(2);
            assertThat(delivered.get("error").isNull()).isTrue();
        });
    }

    @Test
    void internalOrPlainHttpUrlsAndShortSecretsAreRefusedNamingTheFieldAndNothingIsStored() {
        Setup s = fleet(1);
        String admin = tenantToken(s.tenant(), "TENANT_ADMIN");
        for (String url : List.of(
                "https://127.0.0.1/hook",
                "https://169.254.169.254/latest/meta-data",
                "https://10.0.0.1/",
                "http://example.com/hook")) {
            Api.Response refused = register(s, admin, url, null);
            assertThat(refused.status()).as(url).isEqualTo(400);
            assertThat(refused.contentType()).as(url).startsWith("application/problem+json");
            assertThat(refused.json().get("errors").findValuesAsString("field"))
                    .as(url)
                    .containsExactly("url");
        }
        Api.Response shortSecret = api.post(
                webhooks(s),
                admin,
                Map.of(
                        "url",
                        "https://" + WEBHOOK_HOST + "/hook",
                        "secret",
                        "short",
                        "events",
                        List.of("READY", "SOMETIMES")));
        assertThat(shortSecret.status()).isEqualTo(400);
        assertThat(shortSecret.json().get("errors").findValuesAsString("field")).containsExactly("secret", "events");

        assertThat(jdbc.sql("""
				SELECT count(*) FROM tenant_webhook w JOIN tenant t ON t.id = w.tenant_id WHERE t.slug = ?""").param(s.tenant()).query(Long.class).single()).isZero();
        assertThat(api.get(webhooks(s), admin).json().get("totalItems").asInt()).isZero();
    }

    @Test
    void aViewerReadsButCannotRegisterOrDeleteAndAnotherTenantFindsNothing() {
        Setup s = fleet(1);
        String admin = tenantToken(s.tenant(), "TENANT_ADMIN");
        String viewer = tenantToken(s.tenant(), "VIEWER");
        assertThat(register(s, viewer, "https://" + WEBHOOK_HOST + "/hook", null)
                        .status())
                .isEqualTo(403);

        String location = register(s, admin, "https://" + WEBHOOK_HOST + "/hook", List.of("READY"))
                .header("Location");
        JsonNode listed = api.get(webhooks(s), viewer).json();
        assertThat(listed.get("totalItems").asInt()).isEqualTo(1);
        assertThat(listed.get("items").get(0).get("url").asString()).isEqualTo("https://" + WEBHOOK_HOST + "/hook");
        assertThat(api.delete(location, viewer).status()).isEqualTo(403);

        Setup stranger = fleet(1);
        String theirs = tenantToken(stranger.tenant(), "TENANT_ADMIN");
        String viaOwnTenant = location.replace(s.tenant(), stranger.tenant());
        for (String path : List.of(location, location + "/deliveries", viaOwnTenant, viaOwnTenant + "/deliveries")) {
            Api.Response notFound = api.get(path, theirs);
            assertThat(notFound.status()).as(path).isEqualTo(404);
            assertThat(notFound.contentType()).as(path).startsWith("application/problem+json");
        }
        assertThat(api.delete(viaOwnTenant, theirs).status()).isEqualTo(404);
        assertThat(api.get(location, viewer).status()).isEqualTo(200);
    }

    @Test
    void aTenantHasAtMostTenWebhooksAndADeletedOneIsGone() {
        Setup s = fleet(1);
        String admin = tenantToken(s.tenant(), "TENANT_ADMIN");
        String first = null;
        for (int i = 0; i < 10; i++) {
            Api.Response created = register(s, admin, "https://" + WEBHOOK_HOST + "/hook/" + i, null);
            assertThat(created.status()).as(created.body()).isEqualTo(201);
            first = first == null ? created.header("Location") : first;
        }
        Api.Response eleventh = register(s, admin, "https://" + WEBHOOK_HOST + "/hook/10", null);
        assertThat(eleventh.status()).isEqualTo(422);
        assertThat(eleventh.json().get("type").asString()).isEqualTo("https://allot.dev/problems/too_many_webhooks");

        assertThat(api.delete(first, admin).status()).isEqualTo(204);
        assertThat(api.get(first, admin).status()).isEqualTo(404);
        assertThat(jdbc.sql("SELECT count(*) FROM audit_event WHERE action = 'webhook.deleted' AND object_id = ?")
                        .param(first.substring(first.lastIndexOf('/') + 1))
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
        assertThat(register(s, admin, "https://" + WEBHOOK_HOST + "/hook/10", null)
                        .status())
                .isEqualTo(201);
    }
}
