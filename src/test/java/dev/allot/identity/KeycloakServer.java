package dev.allot.identity;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A real Keycloak, run from its own distribution (Maven Central's {@code org.keycloak:keycloak-quarkus-dist},
 * unpacked into {@code target/keycloak} by the {@code keycloak} Maven profile) as a process on a free loopback
 * port, with the realm of {@code ops/keycloak/allot-realm.json}. One Keycloak serves every test class of a run.
 * <p>
 * Where it is not unpacked (a dev machine without {@code -Pkeycloak}) the tests are skipped, with the reason; where
 * {@code ALLOT_KEYCLOAK=required} (CI) that is a failure instead.
 * <p>
 * Keycloak is built once for production mode ({@code kc.sh build}, about a minute, kept in {@code target/}) and
 * then started with {@code start --optimized}, which skips Quarkus's re-augmentation that {@code start-dev} does
 * at every start; its H2 file storage is kept too, so a later run does not create Keycloak's schema again.
 */
final class KeycloakServer {

    static final Path REALM_FILE = Path.of("ops", "keycloak", "allot-realm.json");

    static final String REALM = "allot";

    /** The realm file's client for Allot's browser sign-in. */
    static final String CLIENT_ID = "allot";

    private static final String ADMIN = "admin";

    /** Keycloak's own administrator, created with its storage; only reachable on the loopback interface. */
    private static final String ADMIN_PASSWORD = "keycloak-test-admin-password";

    /** The build options; a change rebuilds (the marker file keeps the options it was built with). */
    private static final List<String> BUILD_OPTIONS =
            List.of("--db=dev-file", "--health-enabled=false", "--metrics-enabled=false");

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static volatile KeycloakServer running;

    private final String baseUrl;

    private final Process process;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private final String clientSecret;

    private KeycloakServer(String baseUrl, Process process, String clientSecret) {
        this.baseUrl = baseUrl;
        this.process = process;
        this.clientSecret = clientSecret;
    }

    /**
     * For {@code @ExtendWith}: starts Keycloak before the class's application context, or skips the class (fails
     * it, in CI) when there is no Keycloak.
     */
    static final class Available implements ExecutionCondition, BeforeAllCallback {

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            String why = unavailable();
            if (why == null) {
                return ConditionEvaluationResult.enabled("Keycloak is unpacked");
            }
            // in CI the class runs, and start() fails it with the reason
            return required()
                    ? ConditionEvaluationResult.enabled("ALLOT_KEYCLOAK=required")
                    : ConditionEvaluationResult.disabled(why);
        }

        @Override
        public void beforeAll(ExtensionContext context) {
            get();
        }
    }

    /** The Keycloak of this run, started on first use. */
    static synchronized KeycloakServer get() {
        if (running == null) {
            running = start();
        }
        return running;
    }

    String issuer() {
        return baseUrl + "/realms/" + REALM;
    }

    String clientSecret() {
        return clientSecret;
    }

    /** A new user of the realm with a password and realm roles; returns Keycloak's id, the token's {@code sub}. */
    String createUser(String username, String password, String... realmRoles) {
        Map<String, Object> user = Map.of(
                "username",
                username,
                "enabled",
                true,
                "firstName",
                "Keycloak",
                "lastName",
                username,
                "email",
                username + "@allot.example",
                "emailVerified",
                true,
                "credentials",
                List.of(Map.of("type", "password", "value", password, "temporary", false)));
        HttpResponse<String> created = admin("POST", "/users", user);
        expect(created, 201);
        String location = created.headers().firstValue("Location").orElseThrow();
        String id = location.substring(location.lastIndexOf('/') + 1);
        for (String role : realmRoles) {
            grantRealmRole(id, role);
        }
        return id;
    }

    /** Grants the user a role of the realm. */
    void grantRealmRole(String id, String role) {
        HttpResponse<String> found = admin("GET", "/roles/" + role, null);
        expect(found, 200);
        expect(admin("POST", "/users/" + id + "/role-mappings/realm", List.of(JSON.readTree(found.body()))), 204);
    }

    /** Renames a user at Keycloak, as a user could where the realm lets them edit their username. */
    void renameUser(String id, String username) {
        expect(admin("PUT", "/users/" + id, Map.of("username", username)), 204);
        HttpResponse<String> read = admin("GET", "/users/" + id, null);
        expect(read, 200);
        Assertions.assertEquals(
                username, JSON.readTree(read.body()).get("username").asString(), "Keycloak did not rename the user");
    }

    /** A new confidential client with a service account (the client-credentials grant); returns its secret. */
    String createServiceClient(String clientId) {
        String secret = "secret-" + clientId;
        expect(
                admin(
                        "POST",
                        "/clients",
                        Map.of(
                                "clientId",
                                clientId,
                                "protocol",
                                "openid-connect",
                                "publicClient",
                                false,
                                "secret",
                                secret,
                                "serviceAccountsEnabled",
                                true,
                                "standardFlowEnabled",
                                false)),
                201);
        return secret;
    }

    /** An access token of the client-credentials grant at this realm. */
    String clientCredentialsToken(String clientId, String secret) {
        HttpResponse<String> response =
                send(HttpRequest.newBuilder(URI.create(issuer() + "/protocol/openid-connect/token"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(form(Map.of(
                                "grant_type", "client_credentials", "client_id", clientId, "client_secret", secret))))
                        .build());
        expect(response, 200);
        return JSON.readTree(response.body()).get("access_token").asString();
    }

    private static KeycloakServer start() {
        String why = unavailable();
        if (why != null) {
            Assertions.fail(why + (required() ? " (ALLOT_KEYCLOAK=required)" : ""));
        }
        Path home = Path.of(System.getProperty("allot.keycloak.home"));
        try {
            return launch(home);
        } catch (IOException ex) {
            throw new IllegalStateException("Keycloak did not start", ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    private static boolean required() {
        return "required".equals(System.getenv("ALLOT_KEYCLOAK"));
    }

    /** Why Keycloak cannot run here, or null. */
    private static @Nullable String unavailable() {
        String home = System.getProperty("allot.keycloak.home");
        if (home == null || !Files.isExecutable(Path.of(home, "bin", "kc.sh"))) {
            return "Keycloak is not unpacked here (" + home + "): run the tests with -Pkeycloak, which has Maven "
                    + "fetch org.keycloak:keycloak-quarkus-dist into target/keycloak";
        }
        if (Runtime.version().feature() < 21) {
            return "Keycloak needs JDK 21 or later; the tests run on " + Runtime.version();
        }
        return null;
    }

    private static KeycloakServer launch(Path home) throws IOException, InterruptedException {
        Path log = home.resolveSibling("keycloak.log");
        Path built = home.resolve("allot-built");
        String options = String.join(" ", BUILD_OPTIONS);
        long buildStarted = System.nanoTime();
        if (!Files.exists(built) || !Files.readString(built).equals(options)) {
            List<String> build =
                    new ArrayList<>(List.of(home.resolve("bin/kc.sh").toString(), "build"));
            build.addAll(BUILD_OPTIONS);
            Process building = process(home, build, home.resolveSibling("keycloak-build.log"))
                    .start();
            if (!building.waitFor(15, TimeUnit.MINUTES) || building.exitValue() != 0) {
                building.destroyForcibly();
                throw new IllegalStateException("kc.sh build failed: see " + home.resolveSibling("keycloak-build.log"));
            }
            Files.writeString(built, options);
        }
        double buildSeconds = (System.nanoTime() - buildStarted) / 1e9;
        int port = freePort();
        String baseUrl = "http://127.0.0.1:" + port;
        long started = System.nanoTime();
        Process process = process(
                        home,
                        List.of(
                                home.resolve("bin/kc.sh").toString(),
                                "start",
                                "--optimized",
                                "--http-enabled=true",
                                "--http-host=127.0.0.1",
                                "--http-port=" + port,
                                "--hostname-strict=false",
                                "--cache=local"),
                        log)
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(process)));
        KeycloakServer server = new KeycloakServer(baseUrl, process, realmClientSecret());
        server.awaitReady(log);
        double startSeconds = (System.nanoTime() - started) / 1e9;
        server.importRealm();
        System.out.printf(
                "Keycloak %s: build %.1f s (0 when kept from an earlier run), start to ready %.1f s, "
                        + "realm imported after %.1f s; load average %.2f%n",
                home.getFileName(),
                buildSeconds,
                startSeconds,
                (System.nanoTime() - started) / 1e9,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        return server;
    }

    private static ProcessBuilder process(Path home, List<String> command, Path log) {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("KC_BOOTSTRAP_ADMIN_USERNAME", ADMIN);
        env.put("KC_BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD);
        // a small heap and the quick compiler: Keycloak shares two cores with the build
        env.put("JAVA_OPTS_KC_HEAP", "-Xms64m -Xmx512m");
        env.put("JAVA_OPTS_APPEND", "-XX:TieredStopAtLevel=1");
        return builder;
    }

    private void awaitReady(Path log) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Keycloak exited with " + process.exitValue() + ":\n" + tail(log));
            }
            try {
                HttpResponse<String> response = http.send(
                        HttpRequest.newBuilder(URI.create(baseUrl + "/realms/master"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException ex) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        stop(process);
        throw new IllegalStateException("Keycloak was not ready within 10 minutes:\n" + tail(log));
    }

    /**
     * The realm file as it is, through Keycloak's admin API (what {@code --import-realm} does at start), replacing
     * the realm a kept storage still holds from an earlier run. Its client lets the tests' Allot, on a random
     * loopback port, be redirected back to.
     */
    private void importRealm() throws IOException {
        ObjectNode realm = (ObjectNode) JSON.readTree(Files.readString(REALM_FILE));
        for (JsonNode client : realm.get("clients")) {
            if (CLIENT_ID.equals(client.get("clientId").asString())) {
                ((ArrayNode) client.get("redirectUris")).add("http://127.0.0.1:*");
            }
        }
        HttpResponse<String> deleted = admin("DELETE", "", null);
        if (deleted.statusCode() != 204 && deleted.statusCode() != 404) {
            throw new IllegalStateException("Could not remove the earlier realm: " + deleted.body());
        }
        expect(send(adminRequest("POST", baseUrl + "/admin/realms", realm)), 201);
    }

    private static String realmClientSecret() throws IOException {
        for (JsonNode client : JSON.readTree(Files.readString(REALM_FILE)).get("clients")) {
            if (CLIENT_ID.equals(client.get("clientId").asString())) {
                return client.get("secret").asString();
            }
        }
        throw new IllegalStateException(REALM_FILE + " has no client " + CLIENT_ID);
    }

    private HttpResponse<String> admin(String method, String path, Object body) {
        return send(adminRequest(method, baseUrl + "/admin/realms/" + REALM + path, body));
    }

    private HttpRequest adminRequest(String method, String url, Object body) {
        HttpRequest.BodyPublisher publisher = body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body));
        return HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", "Bearer " + adminToken())
                .header("Content-Type", "application/json")
                .method(method, publisher)
                .build();
    }

    private String adminToken() {
        HttpResponse<String> response =
                send(HttpRequest.newBuilder(URI.create(baseUrl + "/realms/master/protocol/openid-connect/token"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(form(Map.of(
                                "grant_type",
                                "password",
                                "client_id",
                                "admin-cli",
                                "username",
                                ADMIN,
                                "password",
                                ADMIN_PASSWORD))))
                        .build());
        expect(response, 200);
        return JSON.readTree(response.body()).get("access_token").asString();
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException ex) {
            throw new IllegalStateException("Keycloak did not answer " + request.uri(), ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    private static void expect(HttpResponse<String> response, int status) {
        if (response.statusCode() != status) {
            throw new IllegalStateException(
                    response.request().method() + " " + response.request().uri() + " answered " + response.statusCode()
                            + ", expected " + status + ": " + response.body());
        }
    }

    private static String form(Map<String, String> fields) {
        return fields.entrySet().stream()
                .map(field -> field.getKey() + "=" + URLEncoder.encode(field.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    /** kc.sh runs Keycloak's JVM as a child: stop both. */
    private static void stop(Process process) {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
