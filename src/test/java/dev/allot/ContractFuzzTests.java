package dev.allot;

import static dev.allot.support.MalformedBodies.pick;
import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import dev.allot.support.IntegrationTest;
import dev.allot.support.MalformedBodies;
import dev.allot.support.RawHttp;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.yaml.snakeyaml.Yaml;

/**
 * Every operation of the contract ({@code openapi.yaml}) is sent malformed requests generated from it: bad path
 * parameters (NUL, {@code ..}, encoded slashes, huge, unicode, lone surrogates), bad query parameters, and JSON
 * bodies derived from the request schema with one field made bad (NUL, wrong type, huge number, far-future
 * instant), a key given twice, or broken JSON; as the platform admin and as a tenant member. None may answer
 * 5xx, every 4xx is a problem, and no row is written. The seed is fixed and printed ({@code -Dallot.fuzz.seed}
 * runs another).
 */
@ExtendWith(OutputCaptureExtension.class)
class ContractFuzzTests extends IntegrationTest {

    private static final int PER_OPERATION = 40;

    /** Tables only requests write to, counted whole. */
    private static final List<String> TABLES = List.of(
            "tenant",
            "project",
            "member",
            "reservation",
            "quota",
            "quota_policy",
            "tenant_budget",
            "project_budget",
            "service_account",
            "app_user",
            "pool",
            "node",
            "gpu_type",
            "rate_card",
            "tenant_webhook",
            "node_remediation");

    /**
     * Tables scheduled jobs write to as well (metering, retention, key rotation), counted for this test's callers,
     * tenant or values only, so that another test's jobs cannot move them.
     */
    private static final Map<String, String> SCOPED = Map.of(
            "allocation (of this tenant)",
            "SELECT count(*) FROM allocation a JOIN reservation r ON r.id = a.reservation_id WHERE r.tenant_slug = :tenant",
            "audit_event (by these callers)",
            "SELECT count(*) FROM audit_event WHERE actor IN (:callers) AND action NOT LIKE 'sign_in.%'",
            "idempotent_request (of these callers)",
            "SELECT count(*) FROM idempotent_request WHERE caller IN (:callers)",
            "cluster_health_check (asked by these callers)",
            "SELECT count(*) FROM cluster_health_check WHERE requested_by IN (:callers)",
            "ledger_transaction (of this tenant)",
            "SELECT count(*) FROM ledger_transaction l JOIN tenant t ON t.id = l.tenant_id WHERE t.slug = :tenant",
            "gpu_utilisation_sample (of sample hosts)",
            "SELECT count(*) FROM gpu_utilisation_sample WHERE hostname LIKE 'fz-%'",
            "signing_key (made during the run)",
            "SELECT count(*) FROM signing_key WHERE created_at >= :start");

    private static final List<String> BAD_SEGMENTS = List.of(
            "%00",
            "a%00b",
            "..",
            "%2e%2e",
            "%2F",
            "a%2Fb",
            ";",
            "a;b=c",
            "%5C",
            "%25",
            "%ED%A0%80",
            "%F0%9F%92%A5",
            "%C3%A9t%C3%A9",
            "x".repeat(300),
            "x".repeat(9000),
            "-1",
            "99999999999999999999",
            "%20",
            "%zz",
            "null",
            "%E2%80%AE",
            "%0A",
            "%7F");

    private static final List<String> BAD_QUERY_VALUES = List.of(
            "%00",
            "a%00b",
            "%ED%A0%80",
            "%ED%B0%80",
            "99999999999999999999",
            "-1",
            "-2147483649",
            "1e309",
            "NaN",
            "9999-12-31T00:00:00Z",
            "%2B1000000000-01-01T00:00:00Z",
            "-999999999-01-01T00:00:00Z",
            "1969-12-31T23:59:59Z",
            "",
            "x".repeat(3000),
            "%F0%9F%92%A5",
            "2030-13-45",
            "P99999999999D",
            "PT-1H",
            "P1000000Y",
            "%zz",
            "%0A%0D",
            "0",
            "9999-12",
            "+99999-01");

    private static final List<String> UNSTORABLE_QUERY_VALUES =
            List.of("%00", "a%00b", "%ED%A0%80", "%ED%B0%80", "%zz", "%", "%C3");

    /** The same requests every run, so CI is repeatable; {@code -Dallot.fuzz.seed=<n>} explores others. */
    private static final long DEFAULT_SEED = 20261203L;

    private final Map<String, Object> contract = load();

    @SuppressWarnings("unchecked")
    private final MalformedBodies bodies = new MalformedBodies(
            (Map<String, Object>) ((Map<String, Object>) contract.get("components")).get("schemas"));

    @Test
    void malformedRequestsToEveryOperationAreProblemsAndWriteNothing(CapturedOutput output) {
        long seed = Long.getLong("allot.fuzz.seed", DEFAULT_SEED);
        System.out.println("ContractFuzzTests seed: " + seed + " (replay with -Dallot.fuzz.seed=" + seed + ")");
        Random random = new Random(seed);
        String tenant = newTenant("fz");
        newProject(tenant, "fz-project");
        Client member = serviceAccount(tenant, "MEMBER");
        String memberToken = api.token(member.clientId(), member.clientSecret());
        String adminToken = adminToken();
        Scope scope = new Scope(
                tenant,
                List.of(ADMIN_CLIENT, member.clientId()),
                jdbc.sql("SELECT now()").query(Timestamp.class).single());
        Map<String, Long> before = counts(scope);
        int logged = output.length();

        List<Operation> operations = operations();
        Map<Integer, Integer> tally = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        int sent = 0;
        for (Operation operation : operations) {
            for (int i = 0; i < PER_OPERATION; i++) {
                Malformed request = malform(operation, tenant, random);
                String token = i % 2 == 0 ? adminToken : memberToken;
                Api.Response response = Api.malformedOnPurpose(() -> send(request, token));
                sent++;
                tally.merge(response.status(), 1, Integer::sum);
                String contentType = String.valueOf(response.contentType());
                if (response.status() >= 500) {
                    failures.add(request + " -> " + abbreviate(response.toString(), 400));
                } else if (response.status() < 300 && !request.method().equals("GET")) {
                    failures.add("accepted: " + request + " -> " + abbreviate(response.toString(), 200));
                } else if (response.status() >= 400 && !contentType.startsWith("application/problem+json")) {
                    failures.add(request + " -> " + response.status() + " " + contentType + " "
                            + abbreviate(response.body(), 200));
                }
            }
        }
        System.out.println("ContractFuzzTests sent " + sent + " malformed requests to " + operations.size()
                + " operations; answers by status: " + tally);
        failures.stream().limit(40).forEach(failure -> System.out.println("  " + failure));
        assertThat(sent).isGreaterThanOrEqualTo(2000);
        assertThat(failures)
                .as("5xx answers, 4xx answers that are not problems, writes accepted (seed " + seed + ")")
                .isEmpty();
        assertThat(counts(scope)).as("rows per table (seed " + seed + ")").isEqualTo(before);
        assertThat(output.toString().substring(logged))
                .as("the log while fuzzing (seed " + seed + ")")
                .doesNotContain("Unexpected failure")
                .doesNotContain("\tat ");
    }

    record Operation(
            String method,
            String path,
            List<Map<String, Object>> parameters,
            @Nullable Map<String, Object> bodySchema) {

        List<String> in(String location) {
            return parameters.stream()
                    .filter(p -> location.equals(p.get("in")))
                    .map(p -> String.valueOf(p.get("name")))
                    .toList();
        }
    }

    /** One request: the target is already percent-encoded; raw ones go byte for byte on a socket. */
    record Malformed(
            String kind,
            String method,
            String target,
            @Nullable String body,
            Map<String, String> headers,
            boolean raw) {

        @Override
        public String toString() {
            return kind + ": " + method + " " + abbreviate(printable(target), 200)
                    + (headers.isEmpty() ? "" : " " + printable(headers.toString()))
                    + (body == null ? "" : " " + abbreviate(printable(body), 300));
        }
    }

    private Malformed malform(Operation operation, String tenant, Random random) {
        List<String> kinds = new ArrayList<>(List.of("query"));
        if (!operation.in("path").isEmpty()) {
            kinds.add("path");
            kinds.add("path");
        }
        if (operation.bodySchema() != null) {
            kinds.addAll(
                    List.of("body-field", "body-field", "body-field", "body-field", "body-duplicate", "body-broken"));
        }
        if (operation.in("header").contains("Idempotency-Key")) {
            kinds.add("header");
        }
        kinds.add("raw-path");
        String kind = pick(Arbitraries.of(kinds), random);
        Map<String, String> values = new LinkedHashMap<>();
        for (String name : operation.in("path")) {
            values.put(name, validPathValue(name, tenant));
        }
        String query = "";
        Object body = operation.bodySchema() == null ? null : bodies.sample(operation.bodySchema(), "", random);
        String bodyText = body == null ? null : Api.json(body);
        Map<String, String> headers = new LinkedHashMap<>();
        boolean raw = false;
        switch (kind) {
            case "path" ->
                values.put(
                        pick(Arbitraries.of(operation.in("path")), random), pick(Arbitraries.of(BAD_SEGMENTS), random));
            case "query" -> {
                List<String> names = new ArrayList<>(operation.in("query"));
                names.add("unknown");
                // a write is sent only values no parameter may take, so that an ignored parameter cannot let it through
                List<String> bad = operation.method().equals("GET") ? BAD_QUERY_VALUES : UNSTORABLE_QUERY_VALUES;
                query = "?" + pick(Arbitraries.of(names), random) + "=" + pick(Arbitraries.of(bad), random);
                if (bodyText != null) {
                    // the body is bad as well, so that a request whose bad parameter is ignored still writes nothing
                    bodyText = bodies.badBody(body, random);
                }
            }
            case "body-field" -> bodyText = bodies.badBody(body, random);
            case "body-duplicate" -> bodyText = bodies.duplicateKey(bodyText, body, random);
            case "body-broken" -> bodyText = pick(Arbitraries.of(MalformedBodies.brokenBodies(bodyText)), random);
            case "header" -> {
                String key =
                        pick(Arbitraries.of("a\u0000b", "a\u0001b", "\u007f", "x".repeat(201), "a\tb", " "), random);
                headers.put("Idempotency-Key", key);
                raw = true;
                if (!key.equals("x".repeat(201))) {
                    bodyText = bodies.badBody(body, random);
                }
            }
            case "raw-path" -> {
                raw = true;
                String name =
                        operation.in("path").isEmpty() ? null : pick(Arbitraries.of(operation.in("path")), random);
                String bad =
                        pick(Arbitraries.of("a\\b", "a b", "a\"b", "a<b>", "a{b}", "a|b", "%", "a^b", "a`b"), random);
                if (name != null) {
                    values.put(name, bad);
                } else {
                    query = "?x=" + bad;
                }
                if (bodyText != null) {
                    bodyText = bodies.badBody(body, random);
                }
            }
            default -> throw new IllegalStateException(kind);
        }
        String target = operation.path();
        for (var value : values.entrySet()) {
            target = target.replace("{" + value.getKey() + "}", value.getValue());
        }
        if ((operation.method().equals("POST")
                        || operation.method().equals("PUT")
                        || operation.method().equals("PATCH"))
                && bodyText == null) {
            bodyText = "";
        }
        return new Malformed(kind, operation.method(), target + query, bodyText, headers, raw);
    }

    private static String validPathValue(String name, String tenant) {
        return switch (name) {
            case "tenant" -> tenant;
            case "project" -> "fz-project";
            case "month" -> "2026-01";
            case "id", "check", "transactionId" -> UUID.randomUUID().toString();
            default -> "fz-none";
        };
    }

    // --- the contract, the requests, the rows ---

    @SuppressWarnings("unchecked")
    private List<Operation> operations() {
        List<Operation> operations = new ArrayList<>();
        Map<String, Object> parameters = (Map<String, Object>)
                ((Map<String, Object>) contract.get("components")).getOrDefault("parameters", Map.of());
        ((Map<String, Map<String, Object>>) contract.get("paths"))
                .forEach((path, methods) -> methods.forEach((method, value) -> {
                    Map<String, Object> operation = (Map<String, Object>) value;
                    List<Map<String, Object>> params = new ArrayList<>();
                    for (Map<String, Object> param :
                            (List<Map<String, Object>>) operation.getOrDefault("parameters", List.of())) {
                        Object ref = param.get("$ref");
                        params.add(
                                ref == null
                                        ? param
                                        : (Map<String, Object>) parameters.get(
                                                String.valueOf(ref).substring("#/components/parameters/".length())));
                    }
                    Map<String, Object> schema = null;
                    if (operation.get("requestBody") instanceof Map<?, ?> body
                            && body.get("content") instanceof Map<?, ?> content
                            && content.get("application/json") instanceof Map<?, ?> json) {
                        schema = (Map<String, Object>) json.get("schema");
                    }
                    operations.add(new Operation(method.toUpperCase(), path, params, schema));
                }));
        return operations;
    }

    private Api.Response send(Malformed request, String token) {
        if (request.raw() || !validUri(request.target())) {
            List<String> headers = new ArrayList<>(List.of("Authorization", "Bearer " + token));
            request.headers().forEach((name, value) -> {
                headers.add(name);
                headers.add(value);
            });
            return RawHttp.send(
                    port,
                    request.method(),
                    request.target(),
                    request.body() == null ? "" : request.body(),
                    headers.toArray(String[]::new));
        }
        return switch (request.method()) {
            case "GET" -> api.get(request.target(), token);
            case "DELETE" -> api.delete(request.target(), token);
            case "POST" -> api.post(request.target(), token, request.body());
            case "PUT" -> api.put(request.target(), token, request.body());
            case "PATCH" -> api.patch(request.target(), token, request.body());
            default -> throw new IllegalStateException(request.method());
        };
    }

    private static boolean validUri(String target) {
        try {
            URI.create("http://127.0.0.1" + target);
            return true;
        } catch (IllegalArgumentException ex) {
            return false;
        }
    }

    record Scope(String tenant, List<String> callers, Timestamp start) {}

    private Map<String, Long> counts(Scope scope) {
        Map<String, Long> counts = new TreeMap<>();
        for (String table : TABLES) {
            counts.put(
                    table,
                    jdbc.sql("SELECT count(*) FROM " + table).query(Long.class).single());
        }
        SCOPED.forEach((name, sql) -> {
            var query = jdbc.sql(sql);
            if (sql.contains(":tenant")) {
                query = query.param("tenant", scope.tenant());
            }
            if (sql.contains(":callers")) {
                query = query.param("callers", scope.callers());
            }
            if (sql.contains(":start")) {
                query = query.param("start", scope.start());
            }
            counts.put(name, query.query(Long.class).single());
        });
        return counts;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> load() {
        try {
            return new Yaml().load(Files.readString(Path.of("openapi.yaml")));
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static String printable(String text) {
        StringBuilder out = new StringBuilder();
        text.chars()
                .forEach(c -> out.append(
                        c < 0x20 || c == 0x7f || Character.isSurrogate((char) c)
                                ? String.format("\\u%04x", c)
                                : String.valueOf((char) c)));
        return out.toString();
    }

    private static String abbreviate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "...(" + text.length() + " chars)";
    }
}
