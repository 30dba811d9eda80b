package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Per-project monthly budgets: alerts like the tenant's, and a hard one refuses bookings naming the amount. */
class ProjectBudgetTests extends BillingTest {

    private static Map<String, Object> budget(Object amount, boolean hard) {
        return new HashMap<>(Map.of("amount", amount, "currency", "USD", "hard", hard));
    }

    private Map<String, Object> inProject(Setup s, String project, int gpus, Instant start, Instant end) {
        Map<String, Object> body = body(s, gpus, start, end);
        body.put("project", project);
        return body;
    }

    @Test
    void aHardProjectBudgetRefusesABookingThatWouldCrossItNamingTheAmount() {
        Instant t0 = newMonth();
        Setup s = setup(2, 16, 16, false);
        newProject(s.tenant(), "inference");
        // 8 GPUs at 2.00 USD: 16.00 an hour
        assertThat(api.put(path(s, "/projects/training/budget"), s.token(), budget(100, true))
                        .status())
                .isEqualTo(200);
        book(s, 8, t0.plus(Duration.ofHours(1)), t0.plus(Duration.ofHours(5)));

        Api.Response refused = api.post(
                path(s, "/reservations"),
                s.token(),
                body(s, 8, t0.plus(Duration.ofHours(6)), t0.plus(Duration.ofHours(9))));
        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.json().get("code").asString()).isEqualTo("quota_exceeded");
        assertThat(refused.json().get("limit").asString()).isEqualTo("projectBudget");
        assertThat(refused.json().get("project").asString()).isEqualTo("training");
        assertThat(refused.json().get("allowed").decimalValue()).isEqualByComparingTo("100");
        assertThat(refused.json().get("spent").decimalValue()).isEqualByComparingTo("64");
        assertThat(refused.json().get("exceededBy").decimalValue()).isEqualByComparingTo("12");
        assertThat(refused.json().get("detail").asString()).contains("100").contains("training");
        assertThat(jdbc.sql("SELECT count(*) FROM reservation r JOIN tenant t ON t.id = r.tenant_id WHERE t.slug = ?")
                        .param(s.tenant())
                        .query(Long.class)
                        .single())
                .isEqualTo(1);

        Api.Response quote = api.post(
                path(s, "/quotes"), s.token(), body(s, 8, t0.plus(Duration.ofHours(6)), t0.plus(Duration.ofHours(9))));
        assertThat(quote.json().get("fits").asBoolean()).isFalse();

        // what is left fits; another project is not held by this one's budget
        assertThat(api.post(
                                path(s, "/reservations"),
                                s.token(),
                                body(s, 8, t0.plus(Duration.ofHours(6)), t0.plus(Duration.ofHours(8))))
                        .status())
                .isEqualTo(201);
        assertThat(api.post(
                                path(s, "/reservations"),
                                s.token(),
                                inProject(
                                        s, "inference", 8, t0.plus(Duration.ofHours(6)), t0.plus(Duration.ofHours(16))))
                        .status())
                .isEqualTo(201);
        JsonNode got = api.get(path(s, "/projects/training/budget"), s.token()).json();
        assertThat(got.get("booked").decimalValue()).isEqualByComparingTo("96");
        assertThat(got.get("hard").asBoolean()).isTrue();
    }

    @Test
    void cancellingAndSoftBudgetsLeaveRoomToBook() {
        Instant t0 = newMonth();
        Setup s = setup(2, 16, 16, false);
        assertThat(api.put(path(s, "/projects/training/budget"), s.token(), budget(50, true))
                        .status())
                .isEqualTo(200);
        Api.Response first = book(s, 8, t0.plus(Duration.ofHours(10)), t0.plus(Duration.ofHours(13)));
        assertThat(api.post(
                                path(s, "/reservations"),
                                s.token(),
                                body(s, 8, t0.plus(Duration.ofHours(20)), t0.plus(Duration.ofHours(21))))
                        .status())
                .isEqualTo(422);

        String id = first.json().get("id").asString();
        assertThat(api.post(path(s, "/reservations/" + id + "/cancel"), s.token(), Map.of())
                        .status())
                .isEqualTo(200);
        assertThat(api.post(
                                path(s, "/reservations"),
                                s.token(),
                                body(s, 8, t0.plus(Duration.ofHours(20)), t0.plus(Duration.ofHours(21))))
                        .status())
                .isEqualTo(201);

        assertThat(api.put(path(s, "/projects/training/budget"), s.token(), budget(10, false))
                        .status())
                .isEqualTo(200);
        assertThat(api.post(
                                path(s, "/reservations"),
                                s.token(),
                                body(s, 8, t0.plus(Duration.ofHours(30)), t0.plus(Duration.ofHours(40))))
                        .status())
                .isEqualTo(201);
    }

    @Test
    void crossingAProjectThresholdAlertsOnceNamingTheProject() {
        Instant t0 = newMonth();
        Setup s = setup(2, 16, 16, false);
        newProject(s.tenant(), "inference");
        assertThat(api.put(path(s, "/projects/training/budget"), s.token(), budget(100, false))
                        .status())
                .isEqualTo(200);
        // training: 8 GPUs for 5 hours, 80.00 = 80 %; inference spends too, but it is not training's
        book(s, 8, t0.plus(Duration.ofHours(1)), t0.plus(Duration.ofHours(6)));
        assertThat(api.post(
                                path(s, "/reservations"),
                                s.token(),
                                inProject(
                                        s, "inference", 8, t0.plus(Duration.ofHours(1)), t0.plus(Duration.ofHours(6))))
                        .status())
                .isEqualTo(201);
        Awaitility.await()
                .until(() -> jdbc.sql("SELECT count(*) FROM billable_reservation WHERE tenant_slug = ?")
                                .param(s.tenant())
                                .query(Long.class)
                                .single()
                        == 2);
        CLOCK.set(t0.plus(Duration.ofHours(7)));
        metering.meterDue(CLOCK.instant());
        metering.meterDue(CLOCK.instant());

        JsonNode items = api.get(path(s, "/notifications"), s.token()).json().get("items");
        assertThat(items)
                .extracting(n -> n.get("details").get("project").asString() + " "
                        + n.get("details").get("threshold").asInt())
                .containsExactlyInAnyOrder("training 50", "training 80");
        assertThat(items.get(0).get("message").asString()).contains("project training");
        JsonNode got = api.get(path(s, "/projects/training/budget"), s.token()).json();
        assertThat(got.get("spent").decimalValue()).isEqualByComparingTo("80");
        assertThat(got.get("percentUsed").decimalValue()).isEqualByComparingTo("80");
        // the tenant's own budget keeps its shape and is separate
        assertThat(api.get(path(s, "/budget"), s.token()).status()).isEqualTo(404);
    }

    @Test
    void badProjectBudgetsAreRefusedAndOnlyTenantAdminsOfTheTenantSetThem() {
        newMonth();
        Setup s = setup(1, 8, 8, false);
        Api.Response refused = api.put(
                path(s, "/projects/training/budget"),
                s.token(),
                Map.of("amount", 0, "currency", "XYZ", "thresholds", List.of(50, 50)));
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json().get("errors").findValuesAsString("field"))
                .containsExactlyInAnyOrder("amount", "currency", "thresholds");
        assertThat(api.get(path(s, "/projects/training/budget"), s.token()).status())
                .isEqualTo(404);
        assertThat(api.put(path(s, "/projects/no-such-project/budget"), s.token(), budget(10, true))
                        .status())
                .isEqualTo(404);

        assertThat(api.put(path(s, "/projects/training/budget"), tenantToken(s.tenant(), "MEMBER"), budget(10, true))
                        .status())
                .isEqualTo(403);
        Setup stranger = setup(1, 8, 8, false);
        assertThat(api.put(path(s, "/projects/training/budget"), stranger.token(), budget(10, true))
                        .status())
                .isEqualTo(404);

        Api.Response first = api.put(path(s, "/projects/training/budget"), s.token(), budget(10, true));
        assertThat(first.header("ETag")).isEqualTo("\"1\"");
        assertThat(api.put(path(s, "/projects/training/budget"), s.token(), budget(20, true), "If-Match", "\"0\"")
                        .status())
                .isEqualTo(412);
        assertThat(api.delete(path(s, "/projects/training/budget"), s.token()).status())
                .isEqualTo(204);
        assertThat(api.get(path(s, "/projects/training/budget"), s.token()).status())
                .isEqualTo(404);
    }
}
