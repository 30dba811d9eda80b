package dev.allot.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import dev.allot.support.IntegrationTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Semantics clients rely on (issue 29): {@code If-Match: *} matches any current version of an existing resource, and
 * a list of entity tags matches when one of them is current (RFC 9110); an instant in a create's answer is the one
 * a later read returns (the clock ticks in PostgreSQL's microseconds).
 */
class ClientSemanticsTests extends IntegrationTest {

    @Test
    void ifMatchStarOrAListHoldingTheCurrentTagMatchesAndAStaleTagDoesNot() {
        String tenant = newTenant();
        String path = "/api/v1/tenants/" + tenant;
        String etag = api.get(path, adminToken()).header("ETag");

        Api.Response star = api.patch(path, adminToken(), Map.of("displayName", "Renamed once"), "If-Match", "*");
        assertThat(star.status()).as(star.toString()).isEqualTo(200);

        String current = api.get(path, adminToken()).header("ETag");
        Api.Response listed = api.patch(
                path, adminToken(), Map.of("displayName", "Renamed twice"), "If-Match", "\"999\", " + current);
        assertThat(listed.status()).as(listed.toString()).isEqualTo(200);

        Api.Response stale = api.patch(path, adminToken(), Map.of("displayName", "Lost update"), "If-Match", etag);
        assertThat(stale.status()).isEqualTo(412);
        assertThat(api.get(path, adminToken()).json().get("displayName").asString())
                .isEqualTo("Renamed twice");
    }

    @Test
    void createdAtIsTheSameInTheCreateAnswerAndInALaterRead() {
        String tenant = unique("t");
        Api.Response created = api.post("/api/v1/tenants", adminToken(), Map.of("slug", tenant, "displayName", "T"));
        Api.Response project = api.post(
                "/api/v1/tenants/" + tenant + "/projects",
                adminToken(),
                Map.of("slug", "training", "displayName", "Training"));
        Api.Response account =
                api.post("/api/v1/tenants/" + tenant + "/service-accounts", adminToken(), Map.of("name", "pipeline"));

        assertThat(created.json().get("createdAt").asString())
                .isEqualTo(api.get("/api/v1/tenants/" + tenant, adminToken())
                        .json()
                        .get("createdAt")
                        .asString());
        assertThat(project.json().get("createdAt").asString())
                .isEqualTo(api.get("/api/v1/tenants/" + tenant + "/projects/training", adminToken())
                        .json()
                        .get("createdAt")
                        .asString());
        assertThat(account.json().get("createdAt").asString())
                .isEqualTo(api.get(
                                "/api/v1/tenants/" + tenant + "/service-accounts/"
                                        + account.json().get("id").asString(),
                                adminToken())
                        .json()
                        .get("createdAt")
                        .asString());
    }
}
