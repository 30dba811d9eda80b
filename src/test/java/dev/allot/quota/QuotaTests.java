package dev.allot.quota;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import dev.allot.support.FleetTest;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class QuotaTests extends FleetTest {

    @Autowired
    Quotas quotas;

    @Test
    void aPlatformAdminSetsAQuotaWithIfMatchAndMembersReadTheirOwn() {
        String tenant = newTenant();
        String type = newGpuType();
        addNodes(newPool(type, 8), 2, 2);
        Api.Response empty = api.get("/api/v1/tenants/" + tenant + "/quota", adminToken());
        assertThat(empty.json().get("policies").size()).isZero();
        String etag = empty.header("ETag");

        Map<String, Object> policy = policy(type, 16, 32, true);
        policy.put("monthlyBudget", 10000.50);
        Api.Response put = api.put(
                "/api/v1/tenants/" + tenant + "/quota",
                adminToken(),
                Map.of("policies", List.of(policy)),
                "If-Match",
                etag);
        assertThat(put.status()).isEqualTo(200);
        assertThat(put.header("ETag")).isNotEqualTo(etag);
        Api.Response stale = api.put(
                "/api/v1/tenants/" + tenant + "/quota", adminToken(), Map.of("policies", List.of()), "If-Match", etag);
        assertThat(stale.status()).isEqualTo(412);

        String member = tenantToken(tenant, "VIEWER");
        Api.Response read = api.get("/api/v1/tenants/" + tenant + "/quota", member);
        assertThat(read.status()).isEqualTo(200);
        var first = read.json().get("policies").get(0);
        assertThat(first.get("gpuType").asString()).isEqualTo(type);
        assertThat(first.get("maxWindow").asString()).isEqualTo("PT720H");
        assertThat(first.get("monthlyBudget").decimalValue()).isEqualByComparingTo("10000.50");
        assertThat(first.get("burst").asBoolean()).isTrue();

        assertThat(api.put(
                                "/api/v1/tenants/" + tenant + "/quota",
                                tenantToken(tenant, "TENANT_ADMIN"),
                                Map.of("policies", List.of()))
                        .status())
                .isEqualTo(403);
        assertThat(api.get("/api/v1/tenants/" + tenant + "/quota", tenantToken(newTenant(), "TENANT_ADMIN"))
                        .status())
                .isEqualTo(404);
    }

    @Test
    void guaranteesBeyondTheHealthyCapacityAreRefusedAndWriteNothing() {
        String type = newGpuType();
        List<String> nodes = addNodes(newPool(type, 8), 2, 2);
        String a = newTenant();
        String b = newTenant();
        setQuota(a, type, 16, 16, false);

        Api.Response over = api.put(
                "/api/v1/tenants/" + b + "/quota",
                adminToken(),
                Map.of("policies", List.of(policy(type, 8, 32, false))));
        assertThat(over.status()).as(over.toString()).isEqualTo(422);
        assertThat(over.json().get("type").asString()).endsWith("guarantees_exceed_capacity");
        assertThat(over.json().get("capacity").asInt()).isEqualTo(16);
        assertThat(over.json().get("guaranteed").asInt()).isEqualTo(24);
        assertThat(over.json().get("excess").asInt()).isEqualTo(8);
        assertThat(api.get("/api/v1/tenants/" + b + "/quota", adminToken())
                        .json()
                        .get("policies")
                        .size())
                .isZero();
        setQuota(b, type, 0, 32, false); // borrowing is not a guarantee

        assertThat(api.post(
                                "/api/v1/nodes/" + nodes.getFirst() + "/quarantine",
                                adminToken(),
                                Map.of("reason", "XID 79"))
                        .status())
                .isLessThan(300);
        assertThat(quotas.overcommitted()).contains(new Quotas.Overcommitted(type, 8, 16));
        setQuota(a, type, 8, 16, false); // lowering is allowed, and mends it
        assertThat(quotas.overcommitted()).noneMatch(o -> o.gpuType().equals(type));
    }

    @Test
    void concurrentGuaranteesOfOneGpuTypeCannotBothPass() throws Exception {
        String type = newGpuType();
        addNodes(newPool(type, 8), 2, 2);
        List<String> tenants = List.of(newTenant(), newTenant(), newTenant(), newTenant());
        var pool = Executors.newFixedThreadPool(tenants.size());
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (String tenant : tenants) {
                answers.add(pool.submit(() -> api.put(
                                "/api/v1/tenants/" + tenant + "/quota",
                                adminToken(),
                                Map.of("policies", List.of(policy(type, 16, 16, false))))
                        .status()));
            }
            List<Integer> statuses = new ArrayList<>();
            for (var answer : answers) {
                statuses.add(answer.get());
            }
            assertThat(statuses).containsOnly(200, 422);
            assertThat(statuses).filteredOn(s -> s == 200).hasSize(1);
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void aBadPolicyNamesItsField() {
        String tenant = newTenant();
        String type = newGpuType();
        Api.Response inverted = api.put(
                "/api/v1/tenants/" + tenant + "/quota",
                adminToken(),
                Map.of("policies", List.of(policy(type, 16, 8, false))));
        assertThat(inverted.status()).isEqualTo(400);
        assertThat(inverted.json().get("errors").get(0).get("field").asString()).isEqualTo("policies[0].maxGpus");

        Api.Response unknown = api.put(
                "/api/v1/tenants/" + tenant + "/quota",
                adminToken(),
                Map.of("policies", List.of(policy(type, 8, 8, false), policy("NO-SUCH-TYPE", 8, 8, false))));
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.json().get("errors").get(0).get("field").asString()).isEqualTo("policies[1].gpuType");

        Map<String, Object> badDuration = policy(type, 8, 8, false);
        badDuration.put("maxWindow", "three days");
        assertThat(api.put(
                                "/api/v1/tenants/" + tenant + "/quota",
                                adminToken(),
                                Map.of("policies", List.of(badDuration)))
                        .status())
                .isEqualTo(400);
    }

    @Test
    void aRateCardPricesEachRateClassFromItsEffectiveDate() {
        String type = newGpuType();
        Api.Response put = api.put(
                "/api/v1/rate-cards/" + type,
                adminToken(),
                Map.of(
                        "effectiveFrom",
                        "2021-03-01",
                        "currency",
                        "EUR",
                        "prices",
                        Map.of("RESERVED", new BigDecimal("2.1000"), "BORROWED", 1.05, "ON_DEMAND", 3.99)));
        assertThat(put.status()).isEqualTo(200);
        api.put(
                "/api/v1/rate-cards/" + type,
                adminToken(),
                Map.of(
                        "effectiveFrom",
                        "2099-01-01",
                        "currency",
                        "EUR",
                        "prices",
                        Map.of("RESERVED", 9, "BORROWED", 9, "ON_DEMAND", 9)));

        Api.Response read = api.get("/api/v1/rate-cards/" + type, tenantToken(newTenant(), "VIEWER"));
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json().get("current").get("effectiveFrom").asString()).isEqualTo("2021-03-01");
        assertThat(read.json().get("current").get("prices").get("RESERVED").decimalValue())
                .isEqualByComparingTo("2.1");
        assertThat(read.json().get("cards").size()).isEqualTo(2);

        Api.Response missingClass = api.put(
                "/api/v1/rate-cards/" + type,
                adminToken(),
                Map.of("currency", "EUR", "prices", Map.of("RESERVED", 1, "BORROWED", 1)));
        assertThat(missingClass.status()).isEqualTo(400);
        assertThat(missingClass.json().get("errors").get(0).get("field").asString())
                .isEqualTo("prices.ON_DEMAND");
        assertThat(api.put(
                                "/api/v1/rate-cards/" + type,
                                tenantToken(newTenant(), "TENANT_ADMIN"),
                                Map.of(
                                        "currency",
                                        "EUR",
                                        "prices",
                                        Map.of("RESERVED", 1, "BORROWED", 1, "ON_DEMAND", 1)))
                        .status())
                .isEqualTo(403);
        assertThat(api.get("/api/v1/rate-cards/NO-SUCH-TYPE", adminToken()).status())
                .isEqualTo(404);
    }
}
