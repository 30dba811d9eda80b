package dev.allot.replicas;

import dev.allot.support.Api;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What the replica tests set up through the API, as a platform admin would: GPU types with rate cards, pools of
 * 8-GPU nodes, tenants with a project, a quota and a MEMBER service account; and a browser session.
 */
final class ReplicaFleet {

    static final String SSH_KEY =
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHb3e0kH0Jx2y5Q0m7p9a1c2d3e4f5g6h7i8j9k0l1m2 ci@example";

    /** A tenant: its slug and its service account's token (client-credentials, from any replica). */
    record Tenant(String slug, String token) {

        String reservations() {
            return "/api/v1/tenants/" + slug + "/reservations";
        }
    }

    private final Api api;

    private final String adminToken;

    ReplicaFleet(Api api) {
        this.api = api;
        this.adminToken = api.token(Replica.ADMIN_CLIENT, Replica.ADMIN_SECRET);
    }

    String adminToken() {
        return adminToken;
    }

    String gpuType() {
        String code = "R"
                + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40, 1L << 45), 36)
                        .toUpperCase();
        created(api.post(
                "/api/v1/gpu-types", adminToken, Map.of("code", code, "memoryGb", 80, "interconnect", "NVLINK")));
        ok(api.put(
                "/api/v1/rate-cards/" + code,
                adminToken,
                Map.of(
                        "effectiveFrom",
                        "2020-01-01",
                        "currency",
                        "USD",
                        "prices",
                        Map.of("RESERVED", 2.00, "BORROWED", 1.50, "ON_DEMAND", 4.00))));
        return code;
    }

    void pool(String name, String gpuType, int nodes) {
        created(api.post(
                "/api/v1/pools",
                adminToken,
                Map.of("name", name, "gpuType", gpuType, "gpusPerNode", 8, "region", "eu-test-1")));
        for (int i = 0; i < nodes; i++) {
            created(api.post(
                    "/api/v1/pools/" + name + "/nodes",
                    adminToken,
                    Map.of(
                            "hostname",
                            name + "-n" + i,
                            "rack",
                            "rack-" + i / 4,
                            "ibBlock",
                            "ib-" + i / 4,
                            "cudaDrivers",
                            List.of("550.54", "560.35"))));
        }
    }

    Tenant tenant(String gpuType, int guaranteed, int max) {
        String slug = "t-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40, 1L << 45), 36);
        created(api.post("/api/v1/tenants", adminToken, Map.of("slug", slug, "displayName", "Tenant " + slug)));
        created(api.post(
                "/api/v1/tenants/" + slug + "/projects",
                adminToken,
                Map.of("slug", "training", "displayName", "Training")));
        ok(api.put(
                "/api/v1/tenants/" + slug + "/quota",
                adminToken,
                Map.of(
                        "policies",
                        List.of(Map.of(
                                "gpuType",
                                gpuType,
                                "guaranteedGpus",
                                guaranteed,
                                "maxGpus",
                                max,
                                "burst",
                                false,
                                "maxWindow",
                                "P30D",
                                "maxAdvance",
                                "P60D",
                                "priority",
                                "TRAINING")))));
        Api.Response account = created(api.post(
                "/api/v1/tenants/" + slug + "/service-accounts", adminToken, Map.of("name", "ci", "role", "MEMBER")));
        return new Tenant(
                slug,
                api.token(
                        account.json().get("clientId").asString(),
                        account.json().get("clientSecret").asString()));
    }

    /** A local user (AUDITOR: reads every calendar) and the password the API showed once. */
    String[] user() {
        String username = "u" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40, 1L << 45), 36);
        Api.Response created = created(api.post(
                "/api/v1/users",
                adminToken,
                Map.of("username", username, "displayName", "Watcher", "platformRoles", List.of("AUDITOR"))));
        return new String[] {username, created.json().get("password").asString()};
    }

    static Map<String, Object> booking(String pool, int gpus, Instant start, Instant end) {
        Map<String, Object> body = new HashMap<>();
        body.put("project", "training");
        body.put("pool", pool);
        body.put("gpus", gpus);
        body.put("startsAt", start.toString());
        body.put("endsAt", end.toString());
        body.put(
                "cluster",
                Map.of(
                        "orchestrator",
                        "SLURM",
                        "cudaDriver",
                        "550.54",
                        "sharedMemoryGi",
                        64,
                        "sshPublicKeys",
                        List.of(SSH_KEY)));
        return body;
    }

    /** The next whole minute at least 15 s away: a window starting there is provisioned at once (lead time). */
    static Instant nextMinute() {
        return Instant.now().plusSeconds(15).truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1));
    }

    /**
     * Signs in through the login form of {@code base}, as a browser does (its session is stored in PostgreSQL, so
     * every replica knows it); the returned client carries the session cookie.
     */
    static HttpClient signIn(String base, String username, String password) throws Exception {
        HttpClient browser = HttpClient.newBuilder()
                .cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        HttpResponse<String> page = browser.send(
                HttpRequest.newBuilder(URI.create(base + "/login"))
                        .header("Accept", "text/html")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher csrf = Pattern.compile("name=\"_csrf\"\\s+value=\"([^\"]+)\"").matcher(page.body());
        if (!csrf.find()) {
            throw new AssertionError("No CSRF token on the login page: " + page.body());
        }
        String form = Map.of("username", username, "password", password, "_csrf", csrf.group(1)).entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        HttpResponse<String> signedIn = browser.send(
                HttpRequest.newBuilder(URI.create(base + "/login"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .header("Accept", "text/html")
                        .POST(HttpRequest.BodyPublishers.ofString(form))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        String location = signedIn.headers().firstValue("Location").orElse("");
        if (signedIn.statusCode() != 302 || location.contains("error")) {
            throw new AssertionError("Sign-in refused: " + signedIn.statusCode() + " " + location);
        }
        return browser;
    }

    private static Api.Response created(Api.Response response) {
        if (response.status() != 201) {
            throw new AssertionError("Expected 201: " + response);
        }
        return response;
    }

    private static Api.Response ok(Api.Response response) {
        if (response.status() != 200) {
            throw new AssertionError("Expected 200: " + response);
        }
        return response;
    }
}
