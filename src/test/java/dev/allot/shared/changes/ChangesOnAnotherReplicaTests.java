package dev.allot.shared.changes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.support.Api;
import dev.allot.support.IntegrationTest;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a replica keeps of the rows every request reads (service accounts, tenants, projects, pools) is dropped when
 * another replica changes them. The other replica is played by plain SQL on the shared database: no code of this
 * replica runs for the change, only the table's trigger and this replica's LISTEN connection.
 */
class ChangesOnAnotherReplicaTests extends IntegrationTest {

    private static final Duration NOTICE = Duration.ofSeconds(10);

    @Test
    void aServiceAccountRevokedElsewhereStopsHereAsSoonAsTheChangeArrives() {
        String tenant = newTenant();
        Client client = serviceAccount(tenant, "MEMBER");
        String token = api.token(client.clientId(), client.clientSecret());
        assertThat(api.get("/api/v1/tenants/" + tenant + "/projects", token).status())
                .isEqualTo(200);
        assertThat(api.get("/api/v1/tenants/" + tenant + "/projects", token).status())
                .isEqualTo(200); // now held

        jdbc.sql("UPDATE service_account SET revoked_at = now() WHERE client_id = ?")
                .param(client.clientId())
                .update();

        await().atMost(NOTICE)
                .untilAsserted(() -> assertThat(api.get("/api/v1/tenants/" + tenant + "/projects", token)
                                .status())
                        .isEqualTo(401));
    }

    @Test
    void aTenantSuspendedElsewhereChangesNothingHereOnceTheChangeArrives() {
        String tenant = newTenant();
        String token = tenantToken(tenant, "TENANT_ADMIN");
        newProject(tenant, "first");

        jdbc.sql("UPDATE tenant SET status = 'SUSPENDED' WHERE slug = ?")
                .param(tenant)
                .update();

        await().atMost(NOTICE).untilAsserted(() -> {
            Api.Response refused = api.post(
                    "/api/v1/tenants/" + tenant + "/projects",
                    token,
                    Map.of("slug", "p" + System.nanoTime(), "displayName", "Refused"));
            assertThat(refused.status()).isEqualTo(403);
            assertThat(refused.json().get("type").asString()).endsWith("/tenant_suspended");
        });
    }

    @Test
    void aChangeMadeHereIsReadHereAtOnce() {
        String tenant = newTenant();
        String token = tenantToken(tenant, "TENANT_ADMIN");
        assertThat(api.get("/api/v1/tenants/" + tenant, token)
                        .json()
                        .get("displayName")
                        .asString())
                .isNotEqualTo("Renamed at once");
        assertThat(api.patch("/api/v1/tenants/" + tenant, adminToken(), Map.of("displayName", "Renamed at once"))
                        .status())
                .isEqualTo(200);
        // no waiting: the replica that made the change dropped its copy when the change committed
        assertThat(api.get("/api/v1/tenants/" + tenant, token)
                        .json()
                        .get("displayName")
                        .asString())
                .isEqualTo("Renamed at once");
    }
}
