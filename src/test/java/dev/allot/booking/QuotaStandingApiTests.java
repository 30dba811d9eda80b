package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** A tenant sees what is left of its quota, hour by hour, without asking an admin. */
class QuotaStandingApiTests extends BookingFixture {

    @Test
    void aMemberSeesItsGuaranteeWhatItHoldsAndWhatANewBookingWouldGet() {
        Setup s = setup(4, 8, 16, false);
        assertThat(book(s, 16, hour(5), hour(7)).status()).isEqualTo(201);
        assertThat(book(s, 8, hour(7), hour(8)).status()).isEqualTo(201);

        Api.Response standing = api.get(
                "/api/v1/tenants/" + s.tenant() + "/quota/standing?gpuType=" + s.gpuType() + "&from=" + hour(4) + "&to="
                        + hour(9) + "&step=PT1H",
                tenantToken(s.tenant(), "VIEWER"));
        assertThat(standing.status()).as(standing.toString()).isEqualTo(200);
        var steps = standing.json().get("steps");
        assertThat(steps.size()).isEqualTo(5);
        assertStep(steps.get(0), 0, 0, "RESERVED");
        assertStep(steps.get(1), 8, 8, "NONE");
        assertStep(steps.get(3), 8, 0, "BORROWED");
        assertStep(steps.get(4), 0, 0, "RESERVED");
        assertThat(steps.get(1).get("guaranteedGpus").asInt()).isEqualTo(8);

        assertThat(api.get(
                                "/api/v1/tenants/" + s.tenant() + "/quota/standing?gpuType=" + s.gpuType() + "&from="
                                        + hour(9) + "&to=" + hour(4),
                                s.token())
                        .status())
                .isEqualTo(400);
        assertThat(api.get(
                                "/api/v1/tenants/" + s.tenant() + "/quota/standing?gpuType=" + s.gpuType(),
                                tenantToken(newTenant(), "TENANT_ADMIN"))
                        .status())
                .isEqualTo(404);
    }

    @Test
    void aTimeWindowRaisesTheCeilingInItsHoursAndTheGuaranteeNotLentIsShownHeld() {
        Setup s = setup(4, 8, 16, false);
        String from = hour(5).toString().substring(11, 16);
        String to = hour(7).toString().substring(11, 16);
        Map<String, Object> policy = policy(s.gpuType(), 8, 16, false);
        policy.put("lendableGpus", 4);
        policy.put("zone", "UTC");
        policy.put(
                "windows",
                List.of(Map.of(
                        "days",
                        List.of("MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"),
                        "from",
                        from,
                        "to",
                        to,
                        "maxGpus",
                        32)));
        setQuota(s.tenant(), policy);
        JsonNode saved = api.get("/api/v1/tenants/" + s.tenant() + "/quota", s.token())
                .json()
                .get("policies")
                .get(0);
        assertThat(saved.get("lendableGpus").asInt()).isEqualTo(4);
        assertThat(saved.get("zone").asString()).isEqualTo("UTC");
        assertThat(saved.get("windows").get(0).get("from").asString()).isEqualTo(from);
        assertThat(saved.get("windows").get(0).get("maxGpus").asInt()).isEqualTo(32);

        Api.Response inWindow = book(s, 32, hour(5), hour(7));
        assertThat(inWindow.status()).as(inWindow.toString()).isEqualTo(201);
        Api.Response after = book(s, 24, hour(7), hour(8));
        assertThat(after.status()).as(after.toString()).isEqualTo(422);
        assertThat(after.json().get("limit").asString()).isEqualTo("maxGpus");
        assertThat(after.json().get("allowed").asInt()).isEqualTo(16);

        var steps = api.get(
                        "/api/v1/tenants/" + s.tenant() + "/quota/standing?gpuType=" + s.gpuType() + "&from=" + hour(4)
                                + "&to=" + hour(8) + "&step=PT1H",
                        s.token())
                .json()
                .get("steps");
        assertThat(steps.get(0).get("maxGpus").asInt()).isEqualTo(16);
        assertThat(steps.get(0).get("lendableHeld").asInt()).isEqualTo(4);
        assertThat(steps.get(1).get("maxGpus").asInt()).isEqualTo(32);
        assertThat(steps.get(1).get("lendableHeld").asInt()).isZero();
        assertStep(steps.get(1), 8, 24, "NONE");
        assertThat(steps.get(3).get("maxGpus").asInt()).isEqualTo(16);
    }

    @Test
    void aBadWindowOrLendingLimitNamesItsFieldAndChangesNothing() {
        Setup s = setup(2, 8, 16, false);
        String before = api.get("/api/v1/tenants/" + s.tenant() + "/quota", adminToken())
                .header("ETag");
        for (var bad : List.<Map.Entry<String, Object>>of(
                Map.entry("lendableGpus", 9),
                Map.entry("zone", "Mars/Olympus"),
                Map.entry(
                        "windows",
                        List.of(Map.of("days", List.of("SAT"), "from", "25:00", "to", "06:00", "maxGpus", 32))),
                Map.entry(
                        "windows",
                        List.of(Map.of("days", List.of("SAT"), "from", "20:00", "to", "06:00", "maxGpus", 4))))) {
            Map<String, Object> policy = policy(s.gpuType(), 8, 16, false);
            policy.put(bad.getKey(), bad.getValue());
            Api.Response refused = api.put(
                    "/api/v1/tenants/" + s.tenant() + "/quota", adminToken(), Map.of("policies", List.of(policy)));
            assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
            assertThat(refused.json().get("errors").get(0).get("field").asString())
                    .startsWith("policies[0]." + bad.getKey());
        }
        assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/quota", adminToken())
                        .header("ETag"))
                .isEqualTo(before);
    }

    private static void assertStep(JsonNode step, int reserved, int borrowed, String newBooking) {
        assertThat(step.get("reservedInUse").asInt()).as(step.toString()).isEqualTo(reserved);
        assertThat(step.get("borrowedInUse").asInt()).as(step.toString()).isEqualTo(borrowed);
        assertThat(step.get("newBooking").asString()).as(step.toString()).isEqualTo(newBooking);
    }
}
