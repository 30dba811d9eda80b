package dev.allot.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.support.Api;
import dev.allot.support.FleetTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Quota requests (issue 31, part 2): a tenant admin asks, a platform admin approves (applied with the checks of a
 * direct change) or denies (the reason kept); one waits per tenant, a decided one is final, and each step is
 * audited.
 */
class QuotaRequestTests extends FleetTest {

    private String requests(String tenant) {
        return "/api/v1/tenants/" + tenant + "/quota-requests";
    }

    private Map<String, Object> asking(String type, int guaranteed, int max) {
        return Map.of("policies", List.of(policy(type, guaranteed, max, false)), "reason", "the spring training runs");
    }

    @Test
    void aTenantAdminAsksAndAPlatformAdminApprovesWhichAppliesTheQuota() {
        String type = newGpuType();
        String pool = newPool(type, 8);
        addNodes(pool, 2, 4);
        String tenant = newTenant();
        String admin = tenantToken(tenant, "TENANT_ADMIN");

        Api.Response asked = api.post(requests(tenant), admin, asking(type, 8, 16));
        assertThat(asked.status()).as(asked.toString()).isEqualTo(201);
        assertThat(asked.json().get("status").asString()).isEqualTo("PENDING");
        assertThat(asked.header("location")).endsWith(asked.json().get("id").asString());
        String id = asked.json().get("id").asString();
        assertThat(api.post(requests(tenant), admin, asking(type, 8, 8))
                        .json()
                        .get("code")
                        .asString())
                .isEqualTo("quota_request_pending");
        assertThat(api.get("/api/v1/quota-requests?status=PENDING&size=500", adminToken())
                        .json()
                        .get("items")
                        .findValuesAsString("id"))
                .contains(id);

        // the tenant admin may not decide; the platform admin does
        assertThat(api.post("/api/v1/quota-requests/" + id + "/approve", admin, Map.of())
                        .status())
                .isEqualTo(403);
        Api.Response approved =
                api.post("/api/v1/quota-requests/" + id + "/approve", adminToken(), Map.of("reason", "fits"));
        assertThat(approved.status()).as(approved.toString()).isEqualTo(200);
        assertThat(approved.json().get("status").asString()).isEqualTo("APPROVED");
        Api.Response quota = api.get("/api/v1/tenants/" + tenant + "/quota", admin);
        assertThat(quota.json().get("policies").get(0).get("guaranteedGpus").asInt())
                .isEqualTo(8);
        assertThat(quota.json().get("policies").get(0).get("maxGpus").asInt()).isEqualTo(16);

        Api.Response again = api.post("/api/v1/quota-requests/" + id + "/deny", adminToken(), Map.of("reason", "x"));
        assertThat(again.json().get("code").asString()).isEqualTo("quota_request_decided");
        assertThat(audited(id)).containsExactlyInAnyOrder("quota-request.created", "quota-request.approved");
    }

    @Test
    void aDenialKeepsItsReasonAndChangesNoQuota() {
        String type = newGpuType();
        String tenant = newTenant();
        String admin = tenantToken(tenant, "TENANT_ADMIN");
        String id = api.post(requests(tenant), admin, asking(type, 0, 8))
                .json()
                .get("id")
                .asString();
        assertThat(api.post("/api/v1/quota-requests/" + id + "/deny", adminToken(), Map.of())
                        .status())
                .isEqualTo(400);

        Api.Response denied = api.post(
                "/api/v1/quota-requests/" + id + "/deny", adminToken(), Map.of("reason", "ask again next quarter"));
        assertThat(denied.json().get("status").asString()).isEqualTo("DENIED");
        Api.Response read = api.get(requests(tenant) + "/" + id, tenantToken(tenant, "VIEWER"));
        assertThat(read.json().get("decisionReason").asString()).isEqualTo("ask again next quarter");
        assertThat(api.get("/api/v1/tenants/" + tenant + "/quota", admin).json().get("policies"))
                .isEmpty();
        // decided, a new request may be made
        assertThat(api.post(requests(tenant), admin, asking(type, 0, 4)).status())
                .isEqualTo(201);
    }

    @Test
    void approvingGuaranteesBeyondCapacityIsRefusedAndTheRequestStaysPending() {
        String type = newGpuType();
        String pool = newPool(type, 8);
        addNodes(pool, 1, 4);
        String tenant = newTenant();
        String id = api.post(requests(tenant), tenantToken(tenant, "TENANT_ADMIN"), asking(type, 16, 16))
                .json()
                .get("id")
                .asString();
        Api.Response refused = api.post("/api/v1/quota-requests/" + id + "/approve", adminToken(), Map.of());
        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.json().get("code").asString()).isEqualTo("guarantees_exceed_capacity");
        assertThat(api.get(requests(tenant) + "/" + id, adminToken())
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("PENDING");
    }

    @Test
    void onlyTheTenantsAdminAsksAndOtherTenantsSeeNothing() {
        String type = newGpuType();
        String tenant = newTenant();
        assertThat(api.post(requests(tenant), tenantToken(tenant, "MEMBER"), asking(type, 0, 8))
                        .status())
                .isEqualTo(403);
        String stranger = tenantToken(newTenant(), "TENANT_ADMIN");
        assertThat(api.post(requests(tenant), stranger, asking(type, 0, 8)).status())
                .isEqualTo(404);
        String id = api.post(requests(tenant), tenantToken(tenant, "TENANT_ADMIN"), asking(type, 0, 8))
                .json()
                .get("id")
                .asString();
        assertThat(api.get(requests(tenant) + "/" + id, stranger).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/quota-requests", stranger).status()).isEqualTo(403);
        Map<String, Object> bad = Map.of("policies", List.of(policy("NO-SUCH-TYPE", 0, 8, false)), "reason", "x");
        assertThat(api.post(requests(tenant), adminToken(), bad).status()).isEqualTo(400);
        assertThat(api.post(requests(tenant) + "/" + id + "/withdraw", tenantToken(tenant, "TENANT_ADMIN"))
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("WITHDRAWN");
    }

    @Test
    void eachDecisionTellsTheTenantOnceAndAWithdrawalTellsNothing() {
        String type = newGpuType();
        String tenant = newTenant();
        String admin = tenantToken(tenant, "TENANT_ADMIN");
        String denied = api.post(requests(tenant), admin, asking(type, 0, 8))
                .json()
                .get("id")
                .asString();
        assertThat(api.post(
                                "/api/v1/quota-requests/" + denied + "/deny",
                                adminToken(),
                                Map.of("reason", "ask again next quarter"))
                        .status())
                .isEqualTo(200);
        String approved = api.post(requests(tenant), admin, asking(type, 0, 4))
                .json()
                .get("id")
                .asString();
        assertThat(api.post("/api/v1/quota-requests/" + approved + "/approve", adminToken(), Map.of())
                        .status())
                .isEqualTo(200);
        String withdrawn = api.post(requests(tenant), admin, asking(type, 0, 2))
                .json()
                .get("id")
                .asString();
        assertThat(api.post(requests(tenant) + "/" + withdrawn + "/withdraw", admin)
                        .status())
                .isEqualTo(200);

        await().atMost(Duration.ofSeconds(20)).until(() -> told(tenant, denied) == 1 && told(tenant, approved) == 1);
        Api.Response notices = api.get("/api/v1/tenants/" + tenant + "/notifications", admin);
        var denial = notices.json()
                .get("items")
                .valueStream()
                .filter(n ->
                        denied.equals(n.get("details").get("quotaRequestId").asString()))
                .findFirst()
                .orElseThrow();
        assertThat(denial.get("kind").asString()).isEqualTo("QUOTA_REQUEST_DECIDED");
        assertThat(denial.get("details").get("outcome").asString()).isEqualTo("DENIED");
        assertThat(denial.get("message").asString()).endsWith("was denied: ask again next quarter");
        assertThat(told(tenant, withdrawn)).isZero();
        assertThat(count(
                        "SELECT count(*) FROM notification n JOIN tenant t ON t.id = n.tenant_id "
                                + "WHERE t.slug = ? AND n.kind = 'QUOTA_REQUEST_DECIDED'",
                        tenant))
                .isEqualTo(2);
    }

    /** The tenant's notifications of the decision of this request. */
    private long told(String tenant, String request) {
        return count(
                "SELECT count(*) FROM notification n JOIN tenant t ON t.id = n.tenant_id WHERE t.slug = ? "
                        + "AND n.kind = 'QUOTA_REQUEST_DECIDED' AND n.details ->> 'quotaRequestId' = ?",
                tenant,
                request);
    }

    private long count(String sql, Object... params) {
        return jdbc.sql(sql).params(params).query(Long.class).single();
    }

    private List<String> audited(String id) {
        return jdbc.sql("SELECT action FROM audit_event WHERE object_id = ?")
                .param(id)
                .query(String.class)
                .list();
    }
}
