package dev.allot.shared;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import dev.allot.support.IntegrationTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every kind of bad input gets a clear 4xx problem naming what is wrong, never a 500, and writes nothing. */
class BadInputTests extends IntegrationTest {

    @Test
    void malformedJsonIsA400Problem() {
        Api.Response response = api.post("/api/v1/tenants", adminToken(), "{\"slug\": \"abc\", ");
        assertProblem(response, 400, "invalid_request");
        assertThat(response.json().get("errors").get(0).get("field").asString()).isEqualTo("body");
    }

    @Test
    void anUnknownEnumValueNamesTheFieldAndTheAllowedValues() {
        String tenant = newTenant();
        Api.Response response = api.patch("/api/v1/tenants/" + tenant, adminToken(), Map.of("status", "DELETED"));
        assertProblem(response, 400, "invalid_request");
        var error = response.json().get("errors").get(0);
        assertThat(error.get("field").asString()).isEqualTo("status");
        assertThat(error.get("message").asString()).contains("ACTIVE", "SUSPENDED");
        assertThat(api.get("/api/v1/tenants/" + tenant, adminToken())
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("ACTIVE");
    }

    @Test
    void anUnknownFieldIsRefused() {
        Api.Response response = api.post(
                "/api/v1/tenants", adminToken(), Map.of("slug", unique("x"), "displayName", "X", "owner", "me"));
        assertProblem(response, 400, "invalid_request");
        assertThat(response.json().get("errors").get(0).get("field").asString()).isEqualTo("owner");
    }

    @Test
    void badSlugsAndMissingFieldsNameEachField() {
        long tenants = countTenants();
        for (String slug : new String[] {"AB", "Has Space", "-lead", "x", "a".repeat(41), "trailing-"}) {
            Api.Response response = api.post("/api/v1/tenants", adminToken(), Map.of("slug", slug, "displayName", "X"));
            assertProblem(response, 400, "invalid_request");
            assertThat(response.json().get("errors").get(0).get("field").asString())
                    .isEqualTo("slug");
        }
        Api.Response missing = api.post("/api/v1/tenants", adminToken(), Map.of());
        assertProblem(missing, 400, "invalid_request");
        assertThat(missing.body()).contains("\"slug\"", "\"displayName\"");
        assertThat(countTenants()).isEqualTo(tenants);
    }

    @Test
    void anOversizeBodyIsA413Problem() {
        Api.Response response = api.post(
                "/api/v1/tenants", adminToken(), Map.of("slug", unique("big"), "displayName", "x".repeat(300_000)));
        assertProblem(response, 413, "payload_too_large");
    }

    @Test
    void aWrongContentTypeIsA415Problem() {
        Api.Response response = api.post("/api/v1/tenants", adminToken(), "slug=abc", "Content-Type", "text/plain");
        assertProblem(response, 415, "unsupported_media_type");
    }

    @Test
    void badPaginationIsA400Problem() {
        assertProblem(api.get("/api/v1/tenants?size=501", adminToken()), 400, "invalid_request");
        assertProblem(api.get("/api/v1/tenants?page=-1", adminToken()), 400, "invalid_request");
        assertProblem(api.get("/api/v1/tenants?page=first", adminToken()), 400, "invalid_request");
    }

    @Test
    void anUnknownPathAndAWrongMethodAreProblems() {
        assertProblem(api.get("/api/v1/no-such-thing", adminToken()), 404, "not_found");
        assertProblem(api.delete("/api/v1/tenants", adminToken()), 405, "method_not_allowed");
    }

    @Test
    void aMalformedUuidIsA400Problem() {
        String tenant = newTenant();
        assertProblem(
                api.delete("/api/v1/tenants/" + tenant + "/service-accounts/not-a-uuid", adminToken()),
                400,
                "invalid_request");
    }

    private long countTenants() {
        return jdbc.sql("SELECT count(*) FROM tenant").query(Long.class).single();
    }

    private static void assertProblem(Api.Response response, int status, String code) {
        assertThat(response.status()).as(response.toString()).isEqualTo(status);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().get("type").asString()).isEqualTo("https://allot.dev/problems/" + code);
        assertThat(response.json().get("status").asInt()).isEqualTo(status);
        assertThat(response.json().get("title").asString()).isNotBlank();
    }
}
