package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.allot.billing.budgets.WebhookDelivery;
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
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Monthly budgets: thresholds crossed once each, shown as notifications and sent to a signed webhook. */
class BudgetTests extends BillingTest {

    private static final String SECRET = "a-shared-secret-of-the-tenant";

    private record Received(String body, String signature, String delivery) {}

    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** A webhook receiver on 127.0.0.1 that fails its first request, then accepts. */
    private List<Received> receiver(AtomicInteger requests) throws IOException {
        List<Received> received = new CopyOnWriteArrayList<>();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/hook", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            boolean fail = requests.incrementAndGet() == 1;
            if (!fail) {
                received.add(new Received(
                        body,
                        exchange.getRequestHeaders().getFirst("X-Allot-Signature"),
                        exchange.getRequestHeaders().getFirst("X-Allot-Delivery")));
            }
            exchange.sendResponseHeaders(fail ? 503 : 204, -1);
            exchange.close();
        });
        server.start();
        return received;
    }

    private Map<String, Object> budget(Object amount, String webhookUrl) {
        Map<String, Object> body = new HashMap<>(Map.of("amount", amount, "currency", "USD"));
        if (webhookUrl != null) {
            body.put("webhookUrl", webhookUrl);
            body.put("webhookSecret", SECRET);
        }
        return body;
    }

    @Test
    void crossingThresholdsRecordsEachOnceAndSendsSignedRetriedWebhooks() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        List<Received> received = receiver(requests);
        Instant t0 = newMonth();
        Setup s = setup(2, 16, 16, false);
        String hook = "http://" + WEBHOOK_HOST + ":" + server.getAddress().getPort() + "/hook";
        Api.Response put = api.put(path(s, "/budget"), s.token(), budget(100, hook));
        assertThat(put.status()).isEqualTo(200);
        assertThat(put.json().get("thresholds")).extracting(JsonNode::asInt).containsExactly(50, 80, 100);
        assertThat(put.json().get("webhookSecretSet").asBoolean()).isTrue();
        assertThat(put.body()).doesNotContain(SECRET);

        // 16 GPUs for 3 hours at 2.00: 96.00, past 50 % and 80 % of 100, not 100 %
        book(s, 16, t0.plus(Duration.ofHours(1)), t0.plus(Duration.ofHours(4)));
        CLOCK.set(t0.plus(Duration.ofHours(5)));
        metering.meterDue(CLOCK.instant());
        metering.meterDue(CLOCK.instant());

        JsonNode notifications = api.get(path(s, "/notifications"), s.token()).json();
        assertThat(notifications.get("items"))
                .extracting(n -> n.get("details").get("threshold").asInt())
                .containsExactlyInAnyOrder(50, 80);
        await().atMost(Duration.ofSeconds(60)).until(() -> received.size() == 2);
        for (Received r : received) {
            assertThat(r.signature()).isEqualTo("sha256=" + WebhookDelivery.sign(SECRET, r.body()));
            assertThat(r.body()).contains("\"kind\":\"BUDGET_THRESHOLD\"").contains(r.delivery());
        }
        assertThat(requests.get()).isEqualTo(3);
        await().until(
                        () -> api
                                .get(path(s, "/notifications"), s.token())
                                .json()
                                .get("items")
                                .findValuesAsString("delivery")
                                .stream()
                                .allMatch("DELIVERED"::equals));
        Api.Response got = api.get(path(s, "/budget"), s.token());
        assertThat(got.json().get("spent").decimalValue()).isEqualByComparingTo("96.0000");
        assertThat(got.json().get("percentUsed").decimalValue()).isEqualByComparingTo("96.00");
    }

    @Test
    void aBudgetSetBelowWhatIsSpentAlertsAtOnce() {
        Instant t0 = newMonth();
        Setup s = setup(2, 16, 16, false);
        book(s, 16, t0.plus(Duration.ofHours(1)), t0.plus(Duration.ofHours(2)));
        CLOCK.set(t0.plus(Duration.ofHours(3)));
        metering.meterDue(CLOCK.instant());

        Map<String, Object> body = budget(30, null);
        body.put("thresholds", List.of(100));
        assertThat(api.put(path(s, "/budget"), s.token(), body).status()).isEqualTo(200);

        assertThat(api.get(path(s, "/notifications"), s.token()).json().get("items"))
                .extracting(n -> n.get("details").get("threshold").asInt())
                .containsExactly(100);
    }

    @Test
    void badBudgetsAreRefusedNamingEachFieldAndWriteNothing() {
        newMonth();
        Setup s = setup(1, 8, 8, false);
        Map<String, Object> bad = new HashMap<>(Map.of(
                "amount",
                -5,
                "currency",
                "ABC",
                "thresholds",
                List.of(0, 50),
                "webhookUrl",
                "http://example.com/hook",
                "webhookSecret",
                "short"));
        Api.Response refused = api.put(path(s, "/budget"), s.token(), bad);

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.contentType()).startsWith("application/problem+json");
        assertThat(refused.json().get("errors").findValuesAsString("field"))
                .containsExactlyInAnyOrder("amount", "currency", "thresholds", "webhookUrl", "webhookSecret");
        assertThat(api.get(path(s, "/budget"), s.token()).status()).isEqualTo(404);

        assertThat(api.put(path(s, "/budget"), s.token(), Map.of("amount", "lots", "currency", "USD"))
                        .status())
                .isEqualTo(400);
        assertThat(api.put(path(s, "/budget"), s.token(), Map.of("amount", 10, "currency", "USD", "extra", 1))
                        .status())
                .isEqualTo(400);
        assertThat(api.get(path(s, "/budget"), s.token()).status()).isEqualTo(404);
    }

    @Test
    void aStaleETagIsRefusedAndAViewerCannotSetTheBudget() {
        newMonth();
        Setup s = setup(1, 8, 8, false);
        Api.Response first = api.put(path(s, "/budget"), s.token(), budget(500, null));
        assertThat(first.header("ETag")).isEqualTo("\"1\"");
        assertThat(api.put(path(s, "/budget"), s.token(), budget(600, null), "If-Match", "\"0\"")
                        .status())
                .isEqualTo(412);
        assertThat(api.put(path(s, "/budget"), s.token(), budget(600, null), "If-Match", "\"1\"")
                        .status())
                .isEqualTo(200);
        String viewer = tenantToken(s.tenant(), "VIEWER");
        assertThat(api.get(path(s, "/budget"), viewer).json().get("amount").decimalValue())
                .isEqualByComparingTo("600");
        assertThat(api.put(path(s, "/budget"), viewer, budget(1, null)).status())
                .isEqualTo(403);
    }
}
