package dev.allot.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.shared.security.PlatformRole;
import dev.allot.support.Api;
import dev.allot.support.IntegrationTest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The role matrix of every tenant-scoped endpoint: a stranger gets 404 exactly as for a tenant that does not
 * exist, a viewer or auditor who tries to change something gets 403, no token gets 401.
 */
class AccessMatrixTests extends IntegrationTest {

    record Endpoint(String method, String path, Object body) {}

    private String tenant;

    @BeforeEach
    void tenantWithAProject() {
        tenant = newTenant();
        newProject(tenant, "base");
    }

    private List<Endpoint> reads() {
        String t = "/api/v1/tenants/" + tenant;
        return List.of(
                new Endpoint("GET", t, null),
                new Endpoint("GET", t + "/projects", null),
                new Endpoint("GET", t + "/members", null),
                new Endpoint("GET", t + "/service-accounts", null),
                new Endpoint("GET", t + "/projects/base/members", null));
    }

    private List<Endpoint> writes() {
        String t = "/api/v1/tenants/" + tenant;
        return List.of(
                new Endpoint("POST", t + "/projects", Map.of("slug", unique("p"), "displayName", "P")),
                new Endpoint("POST", t + "/members", Map.of("username", newUser(), "role", "VIEWER")),
                new Endpoint("PUT", t + "/members/nobody", Map.of("role", "VIEWER")),
                new Endpoint("DELETE", t + "/members/nobody", null),
                new Endpoint("POST", t + "/service-accounts", Map.of("name", "ci")),
                new Endpoint("DELETE", t + "/service-accounts/" + UUID.randomUUID(), null),
                new Endpoint("PUT", t + "/projects/base/members/" + newUser(), Map.of("role", "PROJECT_MEMBER")),
                new Endpoint("DELETE", t + "/projects/base/members/nobody", null));
    }

    @Test
    void strangersGet404OnEveryTenantEndpointExactlyAsForAMissingTenant() {
        String stranger = tenantToken(newTenant(), "TENANT_ADMIN");
        for (Endpoint endpoint : concat(reads(), writes())) {
            Api.Response response = call(endpoint, stranger);
            assertThat(response.status()).as(endpoint.toString()).isEqualTo(404);
            Api.Response missing = call(
                    new Endpoint(endpoint.method(), endpoint.path().replace(tenant, "no-such-tenant"), endpoint.body()),
                    stranger);
            assertThat(missing.status()).as("missing " + endpoint).isEqualTo(404);
            assertThat(response.json().get("detail").asString().replace(tenant, "X"))
                    .isEqualTo(missing.json().get("detail").asString().replace("no-such-tenant", "X"));
        }
    }

    @Test
    void viewersAndMembersReadButCannotAdminister() {
        for (String role : List.of("VIEWER", "MEMBER")) {
            String token = tenantToken(tenant, role);
            for (Endpoint endpoint : reads()) {
                assertThat(call(endpoint, token).status())
                        .as(role + " " + endpoint)
                        .isEqualTo(200);
            }
            for (Endpoint endpoint : writes()) {
                assertThat(call(endpoint, token).status())
                        .as(role + " " + endpoint)
                        .isEqualTo(403);
            }
        }
    }

    @Test
    void tenantAdminsAdministerTheirTenantButNotTheTenantRecord() {
        String token = tenantToken(tenant, "TENANT_ADMIN");
        assertThat(call(writes().get(0), token).status()).isEqualTo(201);
        assertThat(api.patch("/api/v1/tenants/" + tenant, token, Map.of("displayName", "Mine now"))
                        .status())
                .isEqualTo(403);
    }

    @Test
    void auditorsReadEveryTenantAndChangeNothing() {
        String auditor = userToken(newUser(PlatformRole.AUDITOR));
        for (Endpoint endpoint : reads()) {
            assertThat(call(endpoint, auditor).status()).as(endpoint.toString()).isEqualTo(200);
        }
        for (Endpoint endpoint : writes()) {
            assertThat(call(endpoint, auditor).status()).as(endpoint.toString()).isEqualTo(403);
        }
        assertThat(api.post("/api/v1/tenants", auditor, Map.of("slug", unique("a"), "displayName", "A"))
                        .status())
                .isEqualTo(403);
    }

    @Test
    void withoutATokenEveryEndpointAnswers401() {
        for (Endpoint endpoint : concat(reads(), writes())) {
            Api.Response response = call(endpoint, null);
            assertThat(response.status()).as(endpoint.toString()).isEqualTo(401);
            assertThat(response.contentType()).startsWith("application/problem+json");
        }
    }

    private Api.Response call(Endpoint endpoint, String token) {
        return switch (endpoint.method()) {
            case "GET" -> api.get(endpoint.path(), token);
            case "POST" -> api.post(endpoint.path(), token, endpoint.body());
            case "PUT" -> api.put(endpoint.path(), token, endpoint.body());
            case "DELETE" -> api.delete(endpoint.path(), token);
            default -> throw new IllegalArgumentException(endpoint.method());
        };
    }

    private static List<Endpoint> concat(List<Endpoint> a, List<Endpoint> b) {
        return Stream.concat(a.stream(), b.stream()).toList();
    }
}
