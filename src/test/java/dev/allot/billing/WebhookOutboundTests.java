package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.allot.billing.budgets.Notifications;
import dev.allot.support.Api;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Webhook URLs cannot reach Allot's own network: internal addresses are refused when a budget is saved and again
 * when a notification is delivered, redirects are not followed, and the tenant sees only a generic reason.
 * (The tests' allow-list names {@code localhost}, over http, for their receivers; nothing else.)
 */
class WebhookOutboundTests extends BillingTest {

    private static final String SECRET = "a-shared-secret-of-the-tenant";

    @Autowired
    Notifications notifications;

    @Autowired
    PlatformTransactionManager transactions;

    private HttpServer server;

    private final List<String> requested = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** A receiver on 127.0.0.1 answering {@code status} (with a Location to /elsewhere) to every request. */
    private int receiver(int status) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            requested.add(exchange.getRequestURI().getPath());
            exchange.getResponseHeaders()
                    .add(
                            "Location",
                            "http://" + WEBHOOK_HOST + ":" + server.getAddress().getPort() + "/elsewhere");
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
        return server.getAddress().getPort();
    }

    @Test
    void webhooksToInternalAddressesOrWithoutHttpsAreRefusedNamingTheFieldAndNothingIsStored() {
        newMonth();
        String tenant = newTenant();
        String admin = tenantToken(tenant, "TENANT_ADMIN");
        String path = "/api/v1/tenants/" + tenant + "/budget";
        for (String url : List.of(
                "http://127.0.0.1/",
                "https://127.0.0.1/",
                "https://169.254.169.254/latest/meta-data",
                "https://10.0.0.1/",
                "https://[::1]/",
                "https://0x7f000001/",
                "https://2130706433/",
                "https://127.1/",
                "https://0177.0.0.1/",
                "https://kubernetes.default.svc/",
                "https://[::ffff:127.0.0.1]/",
                "https://192.168.1.1/",
                "https://172.16.0.1/",
                "https://100.64.0.1/",
                "https://224.0.0.1/",
                "https://[fd00::1]/",
                "http://example.com/",
                "ftp://example.com/hook")) {
            Api.Response refused = api.put(
                    path, admin, Map.of("amount", 100, "currency", "USD", "webhookUrl", url, "webhookSecret", SECRET));

            assertThat(refused.status()).as(url).isEqualTo(400);
            assertThat(refused.contentType()).as(url).startsWith("application/problem+json");
            assertThat(refused.json().get("errors").findValuesAsString("field"))
                    .as(url)
                    .containsExactly("webhookUrl");
        }
        assertThat(api.get(path, admin).status()).isEqualTo(404);
        assertThat(jdbc.sql("SELECT count(*) FROM tenant_budget b JOIN tenant t ON t.id = b.tenant_id WHERE t.slug = ?")
                        .param(tenant)
                        .query(Long.class)
                        .single())
                .isZero();

        JsonNode unresolvable = api.put(
                        path,
                        admin,
                        Map.of(
                                "amount",
                                100,
                                "currency",
                                "USD",
                                "webhookUrl",
                                "https://kubernetes.default.svc/",
                                "webhookSecret",
                                SECRET))
                .json();
        assertThat(unresolvable.get("errors").get(0).get("message").asString())
                .isEqualTo("names a host that does not resolve");
        assertThat(api.put(
                                path,
                                admin,
                                Map.of(
                                        "amount",
                                        100,
                                        "currency",
                                        "USD",
                                        "webhookUrl",
                                        "https://169.254.169.254/latest/meta-data",
                                        "webhookSecret",
                                        SECRET))
                        .json()
                        .get("errors")
                        .get(0)
                        .get("message")
                        .asString())
                .startsWith("must not point at a link-local address");
    }

    @Test
    void aWebhookStoredBeforeItsAddressWasRefusedIsRefusedAtDeliveryWithAGenericReason() throws IOException {
        int port = receiver(204);
        String tenant = newTenant();

        // As an earlier version stored it: to the loopback address itself, which no allow-list entry names.
        UUID id = raise(tenant, "https://127.0.0.1:" + port + "/hook");

        JsonNode notification = awaitAttempt(tenant, id);
        assertThat(notification.get("lastError").asString()).isEqualTo("refused: address not allowed");
        assertThat(requested).isEmpty();
    }

    @Test
    void redirectsAreNotFollowed() throws IOException {
        int port = receiver(302);
        String tenant = newTenant();

        UUID id = raise(tenant, "http://" + WEBHOOK_HOST + ":" + port + "/hook");

        assertThat(awaitAttempt(tenant, id).get("lastError").asString()).isEqualTo("HTTP 302");
        assertThat(requested).isNotEmpty().containsOnly("/hook");
    }

    @Test
    void theTenantSeesOnlyAGenericReasonWhenDeliveryFails() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        String tenant = newTenant();

        UUID id = raise(tenant, "http://" + WEBHOOK_HOST + ":" + closed + "/hook");

        JsonNode notification = awaitAttempt(tenant, id);
        assertThat(notification.get("lastError").asString()).isEqualTo("connection failed");
        String listed = api.get("/api/v1/tenants/" + tenant + "/notifications", tenantToken(tenant, "VIEWER"))
                .body();
        assertThat(listed)
                .doesNotContain("Exception")
                .doesNotContain("127.0.0.1")
                .doesNotContain("refused:");

        int failing = receiver(500);
        UUID second = raise(tenant, "http://" + WEBHOOK_HOST + ":" + failing + "/hook");
        assertThat(awaitAttempt(tenant, second).get("lastError").asString()).isEqualTo("HTTP 500");
    }

    /**
     * Raises a notification with the webhook, as a budget crossing a threshold does; the tenant's budget holds the
     * secret deliveries are signed with.
     */
    private UUID raise(String tenant, String webhookUrl) {
        if (api.get("/api/v1/tenants/" + tenant + "/budget", adminToken()).status() == 404) {
            Api.Response budget = api.put(
                    "/api/v1/tenants/" + tenant + "/budget",
                    adminToken(),
                    Map.of(
                            "amount",
                            100,
                            "currency",
                            "USD",
                            "webhookUrl",
                            "https://" + WEBHOOK_HOST + "/",
                            "webhookSecret",
                            SECRET));
            assertThat(budget.status()).as(budget.body()).isEqualTo(200);
        }
        UUID tenantId = jdbc.sql("SELECT id FROM tenant WHERE slug = ?")
                .param(tenant)
                .query(UUID.class)
                .single();
        String key = "test:" + UUID.randomUUID();
        new TransactionTemplate(transactions)
                .executeWithoutResult(status -> notifications.raise(
                        tenantId,
                        Notifications.Kind.BUDGET_THRESHOLD,
                        key,
                        "Spending reached 50 % of the budget",
                        Map.of("threshold", 50),
                        webhookUrl,
                        Instant.now()));
        return jdbc.sql("SELECT id FROM notification WHERE tenant_id = ? AND dedup_key = ?")
                .params(tenantId, key)
                .query(UUID.class)
                .single();
    }

    /** The notification as the tenant lists it, once its first delivery attempt is over. */
    private JsonNode awaitAttempt(String tenant, UUID id) {
        String viewer = tenantToken(tenant, "VIEWER");
        JsonNode[] found = new JsonNode[1];
        await().until(() -> {
            for (JsonNode n : api.get("/api/v1/tenants/" + tenant + "/notifications", viewer)
                    .json()
                    .get("items")) {
                if (n.get("id").asString().equals(id.toString())
                        && n.get("lastError") != null
                        && !n.get("lastError").isNull()) {
                    found[0] = n;
                    return true;
                }
            }
            return false;
        });
        return found[0];
    }
}
