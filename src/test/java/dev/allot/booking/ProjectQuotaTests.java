package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Project quotas (issue 31, part 4): within the tenant's quota a project is capped per GPU type at GPUs held at once
 * and a monthly budget; a booking over either answers 422 project_quota_exceeded and writes nothing.
 */
class ProjectQuotaTests extends BookingFixture {

    @Test
    void aProjectCappedAtEightGpusAtOnceIsRefusedASecondOverlappingBookingButNotALaterOneOrAnotherProjects() {
        Setup s = setup(3, 24, 24, false);
        newProject(s.tenant(), "inference");
        String admin = tenantToken(s.tenant(), "TENANT_ADMIN");
        Api.Response set = api.put(
                quotaPath(s, "training"),
                admin,
                Map.of("policies", List.of(Map.of("gpuType", s.gpuType(), "maxGpus", 8))));
        assertThat(set.status()).as(set.toString()).isEqualTo(200);
        assertThat(api.get(quotaPath(s, "training"), s.token())
                        .json()
                        .get("policies")
                        .get(0)
                        .get("maxGpus")
                        .asInt())
                .isEqualTo(8);

        assertThat(book(s, 8, hour(5), hour(8)).status()).isEqualTo(201);
        long writes = writesOf(s.tenant());
        Api.Response over = book(s, 8, hour(7), hour(9));
        assertThat(over.status()).as(over.toString()).isEqualTo(422);
        assertThat(over.json().get("code").asString()).isEqualTo("project_quota_exceeded");
        assertThat(over.json().get("limit").asString()).isEqualTo("projectMaxGpus");
        assertThat(over.json().get("held").asInt()).isEqualTo(8);
        assertThat(over.json().get("exceededBy").asInt()).isEqualTo(8);
        assertThat(writesOf(s.tenant())).isEqualTo(writes);

        assertThat(book(s, 8, hour(8), hour(9)).status()).isEqualTo(201);
        Map<String, Object> inference = body(s, 8, hour(7), hour(9));
        inference.put("project", "inference");
        assertThat(book(s, inference).status()).isEqualTo(201);
    }

    @Test
    void aProjectsMonthlyBudgetRefusesABookingThatWouldCostMore() {
        Setup s = setup(1, 8, 8, false);
        assertThat(api.put(
                                quotaPath(s, "training"),
                                adminToken(),
                                Map.of("policies", List.of(Map.of("gpuType", s.gpuType(), "monthlyBudget", 1))))
                        .status())
                .isEqualTo(200);
        Api.Response over = book(s, 8, hour(5), hour(6));
        assertThat(over.status()).as(over.toString()).isEqualTo(422);
        assertThat(over.json().get("code").asString()).isEqualTo("project_quota_exceeded");
        assertThat(over.json().get("limit").asString()).isEqualTo("projectMonthlyBudget");
    }

    @Test
    void aProjectQuotaBeyondTheTenantsOrByAMemberOrAnotherTenantIsRefusedAndChangesNothing() {
        Setup s = setup(1, 8, 16, false);
        String admin = tenantToken(s.tenant(), "TENANT_ADMIN");
        Api.Response beyond = api.put(
                quotaPath(s, "training"),
                admin,
                Map.of("policies", List.of(Map.of("gpuType", s.gpuType(), "maxGpus", 24))));
        assertThat(beyond.status()).isEqualTo(422);
        assertThat(beyond.json().get("code").asString()).isEqualTo("project_quota_exceeds_tenant");
        assertThat(beyond.json().get("errors").get(0).get("field").asString()).isEqualTo("policies[0].maxGpus");
        Api.Response noType = api.put(
                quotaPath(s, "training"),
                admin,
                Map.of("policies", List.of(Map.of("gpuType", "NO-SUCH", "maxGpus", 8))));
        assertThat(noType.status()).isEqualTo(400);

        Map<String, Object> fine = Map.of("policies", List.of(Map.of("gpuType", s.gpuType(), "maxGpus", 8)));
        assertThat(api.put(quotaPath(s, "training"), s.token(), fine).status()).isEqualTo(403);
        assertThat(api.put(quotaPath(s, "training"), tenantToken(newTenant(), "TENANT_ADMIN"), fine)
                        .status())
                .isEqualTo(404);
        assertThat(api.put(quotaPath(s, "no-such-project"), admin, fine).status())
                .isEqualTo(404);
        assertThat(api.get(quotaPath(s, "training"), s.token()).json().get("policies"))
                .isEmpty();
    }

    private static String quotaPath(Setup s, String project) {
        return "/api/v1/tenants/" + s.tenant() + "/projects/" + project + "/quota";
    }
}
