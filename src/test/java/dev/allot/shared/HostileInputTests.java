package dev.allot.shared;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import dev.allot.support.IntegrationTest;
import dev.allot.support.RawHttp;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Input built to break things (a NUL byte, a lone surrogate, year 9999, a key given twice, a number where text
 * belongs, a path the firewall refuses) is each a 400 problem naming what is wrong: never a 500, never an HTML
 * or empty page, never a stack trace in the log, and nothing written.
 */
@ExtendWith(OutputCaptureExtension.class)
class HostileInputTests extends IntegrationTest {

    /** Tables only requests write to; audit rows are counted for this test's caller (jobs audit too). */
    private static final List<String> WRITTEN = List.of("tenant", "project", "reservation", "service_account");

    @Test
    void aNulByteInAQueryParameterIsA400NamingTheParameter(CapturedOutput output) {
        String tenant = newTenant();
        String viewer = tenantToken(tenant, "VIEWER");
        int logged = output.length();
        Api.Response capacity = api.get("/api/v1/capacity?pool=%00", viewer);
        assertRefused(capacity, "pool");
        assertRefused(api.get("/api/v1/audit-events?actor=a%00b", adminToken()), "actor");
        assertRefused(api.get("/api/v1/tenants?page=%00", adminToken()), "page");
        Map<String, Long> before = counts();
        assertRefused(
                api.post("/api/v1/tenants?note=a%00b", adminToken(), Map.of("slug", unique("q"), "displayName", "Q")),
                "note");
        assertThat(counts()).isEqualTo(before);
        assertNoStackTrace(output, logged);
    }

    @Test
    void aNulByteOrALoneSurrogateInAJsonStringIsRefusedAtAnyDepth(CapturedOutput output) {
        String tenant = newTenant();
        Map<String, Long> before = counts();
        int logged = output.length();
        assertRefused(
                api.post(
                        "/api/v1/tenants",
                        adminToken(),
                        "{\"slug\": \"" + unique("nul") + "\", \"displayName\": \"a\\u0000b\"}"),
                "displayName");
        assertRefused(
                api.post(
                        "/api/v1/tenants",
                        adminToken(),
                        "{\"slug\": \"" + unique("sur") + "\", \"displayName\": \"a\\ud800b\"}"),
                "displayName");
        assertRefused(
                api.post(
                        "/api/v1/tenants",
                        adminToken(),
                        "{\"slug\": \"" + unique("sur") + "\", \"displayName\": \"a\\udc00\"}"),
                "displayName");
        assertRefused(
                api.post("/api/v1/tenants/" + tenant + "/reservations", adminToken(), """
				{"project": "p", "pool": "x", "gpus": 1, "startsAt": "2030-01-01T00:00:00Z",
				 "endsAt": "2030-01-01T01:00:00Z",
				 "cluster": {"orchestrator": "KUBERNETES", "volumes": [{"name": "v\\u0000", "sizeGi": 1}]}}"""), "cluster.volumes[0].name");
        assertThat(counts()).isEqualTo(before);
        assertNoStackTrace(output, logged);
    }

    @Test
    void aNulByteInAPathSegmentIsRefused() {
        Map<String, Long> before = counts();
        // Tomcat itself refuses an encoded NUL in the path; the problem then names the request as a whole
        assertRefused(api.get("/api/v1/tenants/%00", adminToken()), null);
        assertRefused(
                api.post("/api/v1/tenants/a%00b/projects", adminToken(), Map.of("slug", "p", "displayName", "P")),
                null);
        assertRefused(api.get("/api/v1/tenants/%ED%A0%80/projects", adminToken()), null);
        assertThat(counts()).isEqualTo(before);
    }

    @Test
    void aControlCharacterInTheIdempotencyKeyIsRefused() {
        Map<String, Long> before = counts();
        String body = Api.json(Map.of("slug", unique("key"), "displayName", "X"));
        assertRefused(
                RawHttp.send(
                        port,
                        "POST",
                        "/api/v1/tenants",
                        body,
                        "Authorization",
                        "Bearer " + adminToken(),
                        "Idempotency-Key",
                        "a\tb"),
                "Idempotency-Key");
        // Tomcat refuses these before any filter; the problem names the request
        for (String key : new String[] {"a\u0000b", "a\u0001b"}) {
            assertRefused(
                    RawHttp.send(
                            port,
                            "POST",
                            "/api/v1/tenants",
                            body,
                            "Authorization",
                            "Bearer " + adminToken(),
                            "Idempotency-Key",
                            key),
                    null);
        }
        assertThat(counts()).isEqualTo(before);
    }

    @Test
    void instantsOutsideTheYears1970To2999AreRefusedNamingTheField(CapturedOutput output) {
        String tenant = newTenant();
        Map<String, Long> before = counts();
        int logged = output.length();
        for (String expiresAt : new String[] {
            "9999-12-31T00:00:00Z", "+1000000000-12-31T00:00:00Z", "3000-01-01T00:00:00Z", "1969-12-31T23:59:59Z"
        }) {
            assertRefused(
                    api.post(
                            "/api/v1/tenants/" + tenant + "/service-accounts",
                            adminToken(),
                            Map.of("name", "ci", "role", "MEMBER", "expiresAt", expiresAt)),
                    "expiresAt");
        }
        assertRefused(
                api.post(
                        "/api/v1/tenants/" + tenant + "/reservations",
                        adminToken(),
                        Map.of(
                                "project",
                                "p",
                                "pool",
                                "x",
                                "gpus",
                                1,
                                "startsAt",
                                "9999-01-01T00:00:00Z",
                                "endsAt",
                                "9999-01-01T01:00:00Z")),
                "startsAt");
        Api.Response query = api.get("/api/v1/audit-events?from=9999-01-01T00:00:00Z", adminToken());
        assertRefused(query, "from");
        assertThat(query.json().get("errors").get(0).get("message").asString()).contains("2999");
        assertThat(counts()).isEqualTo(before);
        assertNoStackTrace(output, logged);
    }

    @Test
    void aKeyGivenTwiceIsRefused() {
        Map<String, Long> before = counts();
        String slug = unique("dup");
        assertRefused(
                api.post(
                        "/api/v1/tenants",
                        adminToken(),
                        "{\"slug\": \"" + slug + "\", \"displayName\": \"A\", \"slug\": \"" + slug + "-b\"}"),
                "slug");
        assertThat(counts()).isEqualTo(before);
    }

    @Test
    void aValueOfAnotherTypeIsNotCoerced() {
        String tenant = newTenant();
        Map<String, Long> before = counts();
        assertRefused(
                api.post("/api/v1/tenants", adminToken(), "{\"slug\": \"" + unique("num") + "\", \"displayName\": 5}"),
                "displayName");
        String reservation = "{\"project\": \"p\", \"pool\": \"x\", \"startsAt\": \"2030-01-01T00:00:00Z\", "
                + "\"endsAt\": \"2030-01-01T01:00:00Z\", ";
        String reservations = "/api/v1/tenants/" + tenant + "/reservations";
        assertRefused(api.post(reservations, adminToken(), reservation + "\"gpus\": \"2\"}"), "gpus");
        assertRefused(api.post(reservations, adminToken(), reservation + "\"gpus\": 1.5}"), "gpus");
        assertRefused(
                api.post(reservations, adminToken(), reservation + "\"gpus\": 1, \"preemptible\": \"true\"}"),
                "preemptible");
        assertRefused(
                api.post(
                        reservations,
                        adminToken(),
                        reservation
                                + "\"gpus\": 1, \"cluster\": {\"orchestrator\": \"KUBERNETES\", \"sshPublicKeys\": \"ssh-ed25519 AAAA\"}}"),
                "cluster.sshPublicKeys");
        assertThat(counts()).isEqualTo(before);
    }

    @Test
    void pathsTheFirewallOrTheContainerRefuseAreProblems(CapturedOutput output) {
        String token = adminToken();
        int logged = output.length();
        for (String target : new String[] {
            "/api/v1/tenants/../tenants",
            "/api/v1/tenants/%2e%2e/tenants",
            "/api/v1/tenants;x=1",
            "/api/v1/tenants/a%3Bb",
            "/api/v1/tenants/a%2Fb",
            "/api/v1/tenants/a%5Cb",
            "/api/v1/tenants/a\\b",
            "/api/v1/tenants/%00",
            "/api/v1/tenants/a%zz",
            "/api/v1/tenants/a%25b"
        }) {
            Api.Response response = RawHttp.send(port, "GET", target, "", "Authorization", "Bearer " + token);
            assertThat(response.status()).as(target + " " + response).isEqualTo(400);
            assertThat(response.contentType()).as(target).startsWith("application/problem+json");
            assertThat(response.json().get("type").asString()).isEqualTo("https://allot.dev/problems/invalid_request");
        }
        Map<String, Long> before = counts();
        String body = Api.json(Map.of("slug", unique("fw"), "displayName", "F"));
        for (String target :
                new String[] {"/api/v1/tenants;x=1", "/api/v1/x/../tenants", "/api/v1/tenants%2F", "/api/v1/tenants%00"
                }) {
            Api.Response response = RawHttp.send(port, "POST", target, body, "Authorization", "Bearer " + token);
            assertThat(response.status()).as(target + " " + response).isEqualTo(400);
            assertThat(response.contentType()).as(target).startsWith("application/problem+json");
        }
        assertThat(counts()).isEqualTo(before);
        assertNoStackTrace(output, logged);
    }

    @Test
    void unusualMethodsAndMediaTypesAreProblems(CapturedOutput output) {
        String token = adminToken();
        int logged = output.length();
        for (String method : new String[] {"TRACE", "PROPFIND", "FOO", "CONNECT"}) {
            Api.Response response =
                    RawHttp.send(port, method, "/api/v1/tenants", "", "Authorization", "Bearer " + token);
            // Tomcat answers CONNECT 501 Not Implemented, as HTTP asks of a method a server does not implement
            assertThat(response.status())
                    .as(method + " " + response)
                    .isBetween(400, method.equals("CONNECT") ? 501 : 499);
            assertThat(response.contentType()).as(method + " " + response).startsWith("application/problem+json");
            assertThat(response.json().get("title").asString()).isNotBlank();
        }
        Api.Response charset =
                api.post("/api/v1/tenants", token, "{}", "Content-Type", "application/json; charset=x-no-such");
        assertThat(charset.status()).as(charset.toString()).isBetween(400, 499);
        assertThat(charset.contentType()).startsWith("application/problem+json");
        Api.Response html = api.get("/api/v1/tenants/%00", token, "Accept", "text/html");
        assertThat(html.status()).isEqualTo(400);
        assertThat(html.contentType()).startsWith("application/problem+json");
        assertNoStackTrace(output, logged);
    }

    @Test
    void aNulByteInATokenRequestOrTheLoginFormIsRefusedWithoutA500(CapturedOutput output) {
        int logged = output.length();
        Api.Response token = RawHttp.send(
                port,
                "POST",
                "/oauth2/token",
                "grant_type=client_credentials&client_id=a%00b&client_secret=x",
                "Content-Type",
                "application/x-www-form-urlencoded");
        assertThat(token.status()).as(token.toString()).isBetween(400, 401);
        Api.Response login = RawHttp.send(
                port,
                "POST",
                "/login",
                "username=a%00b&password=x",
                "Content-Type",
                "application/x-www-form-urlencoded");
        assertThat(login.status()).as(login.toString()).isLessThan(500);
        assertNoStackTrace(output, logged);
    }

    private Map<String, Long> counts() {
        var counts = new TreeMap<String, Long>();
        WRITTEN.forEach(table -> counts.put(
                table,
                jdbc.sql("SELECT count(*) FROM " + table).query(Long.class).single()));
        // the changes the test's caller made; its sign-ins (a token fetched meanwhile) are recorded too, apart
        counts.put(
                "audit_event",
                jdbc.sql("SELECT count(*) FROM audit_event WHERE actor = ? AND action NOT LIKE 'sign_in.%'")
                        .param(ADMIN_CLIENT)
                        .query(Long.class)
                        .single());
        return counts;
    }

    /** A 400 invalid_request problem naming the field first (any field when null). */
    private static void assertRefused(Api.Response response, @Nullable String field) {
        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().get("type").asString()).isEqualTo("https://allot.dev/problems/invalid_request");
        if (field != null) {
            assertThat(response.json().get("errors").get(0).get("field").asString())
                    .as(response.toString())
                    .isEqualTo(field);
        }
    }

    private static void assertNoStackTrace(CapturedOutput output, int from) {
        assertThat(output.toString().substring(from)).doesNotContain("\tat ").doesNotContain("ERROR");
    }
}
