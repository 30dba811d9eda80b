package dev.allot.shared.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.AllotApplication;
import dev.allot.support.Api;
import dev.allot.support.IntegrationTest;
import dev.allot.support.TestDatabase;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * With {@code logging.structured.format.console=ecs} the application logs one JSON object a line, and the lines of
 * a request carry its request id, tenant and caller as fields. The application runs as its own process (its own
 * JVM, as in production), so switching its logging to JSON cannot touch the other tests' log output.
 */
class JsonLogsTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void jsonLinesCarryTheRequestIdTenantAndCaller() throws Exception {
        TestDatabase.Connection db = TestDatabase.get();
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                AllotApplication.class.getName(),
                "--server.port=" + port,
                "--logging.structured.format.console=ecs",
                "--logging.level.allot.requests=debug",
                "--spring.datasource.url=" + db.url(),
                "--spring.datasource.username=" + db.username(),
                "--spring.datasource.password=" + db.password(),
                "--spring.datasource.hikari.maximum-pool-size=6",
                "--allot.security.public-url=",
                "--allot.security.sealing-key=" + IntegrationTest.SEALING_KEY,
                "--allot.security.bootstrap-client-id=" + IntegrationTest.ADMIN_CLIENT,
                "--allot.security.bootstrap-client-secret=" + IntegrationTest.ADMIN_SECRET,
                "--allot.billing.webhook-secret-key=" + IntegrationTest.WEBHOOK_SECRET_KEY,
                "--db-scheduler.enabled=false",
                "--allot.demo.enabled=false",
                "--server.shutdown=immediate"));
        Process app = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> lines = new CopyOnWriteArrayList<>();
        Thread reader = Thread.ofVirtual().start(() -> {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8))) {
                in.lines().forEach(lines::add);
            } catch (IOException ex) {
                // the process ended
            }
        });
        try {
            Api api = new Api(port);
            awaitReady(api, app, lines);
            String tenant =
                    "json-logs-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
            String requestId =
                    "json-logs-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
            String token = api.token(IntegrationTest.ADMIN_CLIENT, IntegrationTest.ADMIN_SECRET);
            Api.Response answer = api.get("/api/v1/tenants/" + tenant + "/projects", token, "X-Request-Id", requestId);
            assertThat(answer.status()).isEqualTo(404);

            Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
            Optional<JsonNode> line = Optional.empty();
            while (line.isEmpty() && Instant.now().isBefore(deadline)) {
                line = lines.stream()
                        .filter(text -> text.contains(requestId))
                        .map(JSON::readTree)
                        .filter(json -> json.path("log.logger").asString("").equals("allot.requests")
                                || json.path("log").path("logger").asString("").equals("allot.requests"))
                        .findFirst();
                Thread.sleep(100);
            }
            assertThat(line)
                    .as("a JSON line of allot.requests for request %s in:%n%s", requestId, String.join("\n", lines))
                    .isPresent();
            JsonNode json = line.get();
            assertThat(json.path("requestId").asString()).isEqualTo(requestId);
            assertThat(json.path("tenantId").asString()).isEqualTo(tenant);
            assertThat(json.path("caller").asString()).isEqualTo(IntegrationTest.ADMIN_CLIENT);
            assertThat(json.path("message").asString()).contains("GET /api/v1/tenants/" + tenant + "/projects 404");
            // every line the logging system wrote is JSON, the start-up lines too
            assertThat(lines.stream()
                            .filter(text -> text.contains("Started AllotApplication"))
                            .toList())
                    .isNotEmpty()
                    .allSatisfy(text -> assertThat(
                                    JSON.readTree(text).path("message").asString())
                            .startsWith("Started AllotApplication"));
        } finally {
            app.destroy();
            if (!app.waitFor(30, TimeUnit.SECONDS)) {
                app.destroyForcibly();
            }
            reader.join(5000);
        }
    }

    private static void awaitReady(Api api, Process app, List<String> lines) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(4));
        while (Instant.now().isBefore(deadline)) {
            if (!app.isAlive()) {
                throw new AssertionError("The application exited:\n" + String.join("\n", lines));
            }
            try {
                if (api.get("/actuator/health/readiness", null).status() == 200) {
                    return;
                }
            } catch (RuntimeException ex) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new AssertionError("The application did not become ready:\n" + String.join("\n", lines));
    }
}
