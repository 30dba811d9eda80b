package dev.allot.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.shared.security.PlatformRole;
import dev.allot.support.Api;
import dev.allot.support.IntegrationTest;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;

class AuditTrailTests extends IntegrationTest {

    @Test
    void everyChangeIsRecordedWithActorRequestIdAndBeforeAndAfter() {
        String tenant = newTenant();
        Api.Response renamed = api.patch(
                "/api/v1/tenants/" + tenant,
                adminToken(),
                Map.of("displayName", "After"),
                "X-Request-Id",
                "req-" + tenant);
        assertThat(renamed.status()).isEqualTo(200);

        Api.Response events = api.get("/api/v1/audit-events?tenant=" + tenant, adminToken());
        assertThat(events.status()).isEqualTo(200);
        var items = events.json().get("items");
        assertThat(items.size()).isEqualTo(2);
        var update = items.get(0);
        assertThat(update.get("action").asString()).isEqualTo("tenant.updated");
        assertThat(update.get("actor").asString()).isEqualTo(ADMIN_CLIENT);
        assertThat(update.get("requestId").asString()).isEqualTo("req-" + tenant);
        assertThat(update.get("before").get("displayName").asString()).isEqualTo("Tenant " + tenant);
        assertThat(update.get("after").get("displayName").asString()).isEqualTo("After");
        assertThat(items.get(1).get("action").asString()).isEqualTo("tenant.created");
    }

    @Test
    void aRefusedChangeLeavesNoAuditRow() {
        String tenant = newTenant();
        long before = count(tenant);
        api.post(
                "/api/v1/tenants/" + tenant + "/projects",
                tenantToken(tenant, "VIEWER"),
                Map.of("slug", "nope", "displayName", "Nope"));
        api.post("/api/v1/tenants/" + tenant + "/projects", adminToken(), Map.of("slug", "BAD SLUG"));
        // the service account created for the viewer token is itself a recorded change
        assertThat(count(tenant)).isEqualTo(before + 1);
    }

    @Test
    void postgresRefusesToUpdateOrDeleteAuditRows() {
        String tenant = newTenant();
        assertThatThrownBy(() -> jdbc.sql("UPDATE audit_event SET actor = 'someone-else' WHERE tenant_slug = ?")
                        .param(tenant)
                        .update())
                .isInstanceOf(DataAccessException.class)
                .rootCause()
                .hasMessageContaining("append-only");
        assertThatThrownBy(() -> jdbc.sql("DELETE FROM audit_event WHERE tenant_slug = ?")
                        .param(tenant)
                        .update())
                .isInstanceOf(DataAccessException.class)
                .rootCause()
                .hasMessageContaining("append-only");
        assertThat(count(tenant)).isEqualTo(1);
    }

    @Test
    void onlyPlatformAdminsAndAuditorsReadTheTrail() {
        String tenant = newTenant();
        assertThat(api.get("/api/v1/audit-events", userToken(newUser(PlatformRole.AUDITOR)))
                        .status())
                .isEqualTo(200);
        assertThat(api.get("/api/v1/audit-events", tenantToken(tenant, "TENANT_ADMIN"))
                        .status())
                .isEqualTo(403);
    }

    @Test
    void theTrailFiltersByActorAndTime() {
        String tenant = newTenant();
        Api.Response byActor =
                api.get("/api/v1/audit-events?actor=" + ADMIN_CLIENT + "&tenant=" + tenant, adminToken());
        assertThat(byActor.json().get("totalItems").asLong()).isEqualTo(1);
        Api.Response future =
                api.get("/api/v1/audit-events?tenant=" + tenant + "&from=2999-01-01T00:00:00Z", adminToken());
        assertThat(future.json().get("totalItems").asLong()).isZero();
        Api.Response badRange =
                api.get("/api/v1/audit-events?from=2030-01-01T00:00:00Z&to=2020-01-01T00:00:00Z", adminToken());
        assertThat(badRange.status()).isEqualTo(400);
        assertThat(api.get("/api/v1/audit-events?from=yesterday", adminToken()).status())
                .isEqualTo(400);
    }

    private long count(String tenant) {
        return jdbc.sql("SELECT count(*) FROM audit_event WHERE tenant_slug = ?")
                .param(tenant)
                .query(Long.class)
                .single();
    }
}
