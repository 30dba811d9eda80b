package dev.allot.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import dev.allot.support.IntegrationTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TenancyApiTests extends IntegrationTest {

    @Test
    void aPlatformAdminCreatesATenantOnceAndTheSlugIsThenTaken() {
        String slug = unique("acme");
        Api.Response created = api.post("/api/v1/tenants", adminToken(), Map.of("slug", slug, "displayName", "Acme"));
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.header("location")).isEqualTo("/api/v1/tenants/" + slug);
        assertThat(created.json().get("status").asString()).isEqualTo("ACTIVE");

        Api.Response again = api.post("/api/v1/tenants", adminToken(), Map.of("slug", slug, "displayName", "Other"));
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.json().get("type").asString()).endsWith("/tenant_exists");
        assertThat(api.get("/api/v1/tenants/" + slug, adminToken())
                        .json()
                        .get("displayName")
                        .asString())
                .isEqualTo("Acme");
    }

    @Test
    void aTenantMemberCannotCreateTenants() {
        String tenant = newTenant();
        Api.Response refused = api.post(
                "/api/v1/tenants",
                tenantToken(tenant, "TENANT_ADMIN"),
                Map.of("slug", unique("x"), "displayName", "X"));
        assertThat(refused.status()).isEqualTo(403);
    }

    @Test
    void membersListOnlyTheirOwnTenants() {
        String mine = newTenant();
        String other = newTenant();
        Api.Response list = api.get("/api/v1/tenants?size=500", tenantToken(mine, "VIEWER"));
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.json().get("totalItems").asLong()).isEqualTo(1);
        assertThat(list.json().get("items").get(0).get("slug").asString()).isEqualTo(mine);
        assertThat(list.body()).doesNotContain(other);
    }

    @Test
    void renamingWithAStaleETagIsRefusedAndChangesNothing() {
        String tenant = newTenant();
        Api.Response current = api.get("/api/v1/tenants/" + tenant, adminToken());
        String etag = current.header("etag");
        Api.Response renamed = api.patch(
                "/api/v1/tenants/" + tenant, adminToken(), Map.of("displayName", "Renamed"), "If-Match", etag);
        assertThat(renamed.status()).isEqualTo(200);
        assertThat(renamed.header("etag")).isNotEqualTo(etag);

        Api.Response stale =
                api.patch("/api/v1/tenants/" + tenant, adminToken(), Map.of("displayName", "Stale"), "If-Match", etag);
        assertThat(stale.status()).isEqualTo(412);
        assertThat(api.get("/api/v1/tenants/" + tenant, adminToken())
                        .json()
                        .get("displayName")
                        .asString())
                .isEqualTo("Renamed");
    }

    @Test
    void aSuspendedTenantReadsButChangesNothing() {
        String tenant = newTenant();
        String token = tenantToken(tenant, "TENANT_ADMIN");
        newProject(tenant, "before");
        assertThat(api.patch("/api/v1/tenants/" + tenant, adminToken(), Map.of("status", "SUSPENDED"))
                        .status())
                .isEqualTo(200);

        assertThat(api.get("/api/v1/tenants/" + tenant + "/projects", token).status())
                .isEqualTo(200);
        Api.Response refused = api.post(
                "/api/v1/tenants/" + tenant + "/projects", token, Map.of("slug", "after", "displayName", "After"));
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().get("type").asString()).endsWith("/tenant_suspended");
        assertThat(api.get("/api/v1/tenants/" + tenant + "/projects", token)
                        .json()
                        .get("totalItems")
                        .asLong())
                .isEqualTo(1);
    }

    @Test
    void addingAMemberWhoIsNotAUserIsBadInputAndWritesNothing() {
        String tenant = newTenant();
        String token = tenantToken(tenant, "TENANT_ADMIN");
        long before = jdbc.sql("SELECT count(*) FROM member").query(Long.class).single();
        Api.Response refused = api.post(
                "/api/v1/tenants/" + tenant + "/members", token, Map.of("username", "nosuchuser", "role", "MEMBER"));
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.header("content-type")).startsWith("application/problem+json");
        assertThat(refused.json().get("type").asString()).isEqualTo("https://allot.dev/problems/invalid_request");
        assertThat(refused.json().get("errors").get(0).get("field").asString()).isEqualTo("username");
        assertThat(refused.json().get("errors").get(0).get("message").asString())
                .contains("No user is named nosuchuser");
        assertThat(jdbc.sql("SELECT count(*) FROM member").query(Long.class).single())
                .isEqualTo(before);
        assertThat(api.get("/api/v1/tenants/" + tenant + "/members/nosuchuser", token)
                        .status())
                .isEqualTo(404);
    }

    @Test
    void aTenantAdminManagesProjectsAndMembers() {
        String tenant = newTenant();
        String token = tenantToken(tenant, "TENANT_ADMIN");
        assertThat(api.post(
                                "/api/v1/tenants/" + tenant + "/projects",
                                token,
                                Map.of("slug", "llm", "displayName", "LLM <b>training</b>"))
                        .status())
                .isEqualTo(201);
        Api.Response duplicate = api.post(
                "/api/v1/tenants/" + tenant + "/projects", token, Map.of("slug", "llm", "displayName", "Again"));
        assertThat(duplicate.status()).isEqualTo(409);

        String user = newUser();
        // a tenant admin invites; the user joins by accepting (InvitationTests)
        Api.Response invited =
                api.post("/api/v1/tenants/" + tenant + "/members", token, Map.of("username", user, "role", "VIEWER"));
        assertThat(invited.status()).isEqualTo(202);
        assertThat(api.post("/api/v1/invitations/" + invited.json().get("id").asString() + "/accept", userToken(user))
                        .status())
                .isEqualTo(200);
        assertThat(api.put("/api/v1/tenants/" + tenant + "/members/" + user, token, Map.of("role", "MEMBER"))
                        .json()
                        .get("role")
                        .asString())
                .isEqualTo("MEMBER");
        assertThat(api.get("/api/v1/me", userToken(user))
                        .json()
                        .get("tenants")
                        .get(0)
                        .get("role")
                        .asString())
                .isEqualTo("MEMBER");

        assertThat(api.delete("/api/v1/tenants/" + tenant + "/members/" + user, token)
                        .status())
                .isEqualTo(204);
        // A removed membership takes effect at once, even for a token issued before.
        assertThat(api.get("/api/v1/tenants/" + tenant + "/projects", userToken(user))
                        .status())
                .isEqualTo(404);
    }

    @Test
    void listsPaginate() {
        String tenant = newTenant();
        for (String slug : new String[] {"p-one", "p-two", "p-three"}) {
            newProject(tenant, slug);
        }
        Api.Response page = api.get("/api/v1/tenants/" + tenant + "/projects?page=1&size=2", adminToken());
        assertThat(page.json().get("page").asInt()).isEqualTo(1);
        assertThat(page.json().get("size").asInt()).isEqualTo(2);
        assertThat(page.json().get("totalItems").asLong()).isEqualTo(3);
        assertThat(page.json().get("items").size()).isEqualTo(1);
    }
}
