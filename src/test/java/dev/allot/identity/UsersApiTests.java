package dev.allot.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import dev.allot.support.IntegrationTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UsersApiTests extends IntegrationTest {

    @Test
    void aPlatformAdminAddsAUserWhosePasswordIsShownOnceAndNeverAudited() {
        String username = unique("carol");
        Api.Response created = api.post(
                "/api/v1/users",
                adminToken(),
                Map.of("username", username, "displayName", "Carol", "platformRoles", List.of("AUDITOR")));
        assertThat(created.status()).isEqualTo(201);
        String password = created.json().get("password").asString();
        assertThat(password).hasSizeGreaterThan(12);
        assertThat(created.header("cache-control")).contains("no-store");

        assertThat(api.get("/api/v1/me", userToken(username))
                        .json()
                        .get("roles")
                        .get(0)
                        .asString())
                .isEqualTo("AUDITOR");
        assertThat(jdbc.sql("SELECT count(*) FROM audit_event WHERE object_id = ? AND after::text LIKE ?")
                        .params(username, "%" + password + "%")
                        .query(Long.class)
                        .single())
                .isZero();
        assertThat(api.post("/api/v1/users", adminToken(), Map.of("username", username, "displayName", "Again"))
                        .status())
                .isEqualTo(409);
    }

    @Test
    void tenantAdminsCannotAddUsers() {
        String token = tenantToken(newTenant(), "TENANT_ADMIN");
        assertThat(api.post("/api/v1/users", token, Map.of("username", unique("eve"), "displayName", "Eve"))
                        .status())
                .isEqualTo(403);
        assertThat(api.get("/api/v1/users", token).status()).isEqualTo(403);
    }

    @Test
    void aShortPasswordOrABadUsernameIsRefused() {
        Api.Response response = api.post(
                "/api/v1/users",
                adminToken(),
                Map.of("username", "Not Valid", "displayName", "X", "password", "short"));
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.body()).contains("\"username\"", "\"password\"");
    }
}
