package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Usage reports, the platform report, and idle detection from GPU telemetry. */
class ReportTests extends BillingTest {

    @Test
    void usageGroupsByProjectRateClassAndDayAndAddsUpToTheLedger() {
        Instant t0 = newMonth();
        Setup s = setup(4, 8, 16, true);
        newProject(s.tenant(), "inference");
        book(s, 24, t0.plus(Duration.ofHours(20)), t0.plus(Duration.ofHours(28)));
        Map<String, Object> other = body(s, 8, t0.plus(Duration.ofHours(2)), t0.plus(Duration.ofHours(4)));
        other.put("project", "inference");
        assertThat(api.post(path(s, "/reservations"), s.token(), other).status())
                .isEqualTo(201);
        CLOCK.set(t0.plus(Duration.ofHours(30)));
        await(s);
        metering.meterDue(CLOCK.instant());

        String query = "/usage?from=" + t0 + "&to=" + t0.plus(Duration.ofDays(3)) + "&groupBy=project,rateClass,day";
        JsonNode report = api.get(path(s, query), s.token()).json();
        BigDecimal net = BigDecimal.ZERO;
        BigDecimal hours = BigDecimal.ZERO;
        List<String> keys = new ArrayList<>();
        for (JsonNode row : report.get("items")) {
            net = net.add(row.get("net").decimalValue());
            hours = hours.add(row.get("gpuHours").decimalValue());
            keys.add(row.get("start").asString().substring(0, 10) + " "
                    + row.get("project").asString() + " " + row.get("rateClass").asString());
            assertThat(row.get("gpuType").isNull()).isTrue();
        }
        assertThat(net).isEqualByComparingTo(receivable(s.tenant()));
        assertThat(hours).isEqualByComparingTo("208");
        String day1 = t0.toString().substring(0, 10);
        String day2 = t0.plus(Duration.ofDays(1)).toString().substring(0, 10);
        assertThat(keys)
                .contains(day1 + " inference RESERVED", day1 + " training ON_DEMAND", day2 + " training BORROWED");

        Api.Response csv = api.get(path(s, query), s.token(), "Accept", "text/csv");
        assertThat(csv.status()).isEqualTo(200);
        assertThat(csv.body().split("\r\n")).hasSize(report.get("items").size() + 1);
        assertThat(csv.body())
                .startsWith("start,project,gpuType,rateClass,gpuHours,creditedGpuHours,cost,credits,net,currency");

        Api.Response bad = api.get(path(s, "/usage?groupBy=project,tenant"), s.token());
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("errors").get(0).get("field").asString()).isEqualTo("groupBy");
        assertThat(api.get(path(s, "/usage?groupBy=day,week"), s.token()).status())
                .isEqualTo(400);
        Api.Response inverted = api.get(path(s, "/usage?from=2030-02-01&to=2030-01-01"), s.token());
        assertThat(inverted.json().get("errors").get(0).get("field").asString()).isEqualTo("to");
    }

    /** Usage grouped by a reservation label gives the cost per workload kind (issue 29, finding 15). */
    @Test
    void usageGroupsByALabelOfTheReservations() {
        Instant t0 = newMonth();
        Setup s = setup(2, 16, 16, false);
        Map<String, Object> fineTune = body(s, 8, t0.plus(Duration.ofHours(2)), t0.plus(Duration.ofHours(4)));
        fineTune.put("labels", Map.of("workload", "fine-tune"));
        Map<String, Object> eval = body(s, 8, t0.plus(Duration.ofHours(2)), t0.plus(Duration.ofHours(3)));
        eval.put("labels", Map.of("workload", "eval"));
        Map<String, Object> untagged = body(s, 8, t0.plus(Duration.ofHours(5)), t0.plus(Duration.ofHours(6)));
        for (Map<String, Object> booking : List.of(fineTune, eval, untagged)) {
            assertThat(api.post(path(s, "/reservations"), s.token(), booking).status())
                    .isEqualTo(201);
        }
        Awaitility.await()
                .until(() -> jdbc.sql("SELECT count(*) FROM billable_reservation WHERE tenant_slug = ?")
                                .param(s.tenant())
                                .query(Long.class)
                                .single()
                        == 3);
        CLOCK.set(t0.plus(Duration.ofHours(8)));
        metering.meterDue(CLOCK.instant());

        String query = "/usage?from=" + t0 + "&to=" + t0.plus(Duration.ofDays(1)) + "&groupBy=label:workload";
        JsonNode report = api.get(path(s, query), s.token()).json();
        Map<String, BigDecimal> hours = new HashMap<>();
        for (JsonNode row : report.get("items")) {
            JsonNode workload = row.get("labels").get("workload");
            hours.put(
                    workload.isNull() ? "(none)" : workload.asString(),
                    row.get("gpuHours").decimalValue());
        }
        assertThat(hours).hasSize(3);
        assertThat(hours.get("fine-tune")).isEqualByComparingTo("16");
        assertThat(hours.get("eval")).isEqualByComparingTo("8");
        assertThat(hours.get("(none)")).isEqualByComparingTo("8");
        Api.Response csv = api.get(path(s, query), s.token(), "Accept", "text/csv");
        assertThat(csv.body()).startsWith("start,project,gpuType,rateClass,label:workload,gpuHours,");
        assertThat(api.get(path(s, "/usage?groupBy=label:Bad"), s.token()).status())
                .isEqualTo(400);
    }

    private void await(Setup s) {
        Awaitility.await()
                .until(() -> jdbc.sql("SELECT count(*) FROM billable_reservation WHERE tenant_slug = ?")
                                .param(s.tenant())
                                .query(Long.class)
                                .single()
                        == 2);
    }

    @Test
    void thePlatformReportShowsUtilisationOfHealthyCapacityAndBurstForAdminsOnly() {
        Instant t0 = newMonth();
        Setup s = setup(2, 0, 0, true);
        book(s, 8, t0.plus(Duration.ofHours(1)), t0.plus(Duration.ofHours(3)));
        CLOCK.set(t0.plus(Duration.ofHours(4)));
        metering.meterDue(CLOCK.instant());

        String query = "/api/v1/reports/platform?from=" + t0 + "&to=" + t0.plus(Duration.ofHours(4))
                + "&step=hour&pool=" + s.pool();
        assertThat(api.get(query, s.token()).status()).isEqualTo(403);
        Api.Response report = api.get(query, adminToken());
        assertThat(report.status()).isEqualTo(200);
        JsonNode buckets = report.json().get("pools").get(0).get("buckets");
        assertThat(buckets).hasSize(4);
        assertThat(buckets.get(0).get("allocatedGpuHours").decimalValue()).isZero();
        // 2 nodes of 8 GPUs, one of them booked: half the healthy capacity
        assertThat(buckets.get(1).get("healthyGpuHours").decimalValue()).isEqualByComparingTo("16");
        assertThat(buckets.get(1).get("allocatedGpuHours").decimalValue()).isEqualByComparingTo("8");
        assertThat(buckets.get(1).get("utilisation").decimalValue()).isEqualByComparingTo("0.5");
        assertThat(report.json().get("topTenants").findValuesAsString("tenant")).contains(s.tenant());
        assertThat(report.json().get("burst").get("onDemandGpuHours").decimalValue())
                .isGreaterThanOrEqualTo(new BigDecimal("16"));
        assertThat(api.get("/api/v1/reports/platform?step=fortnight", adminToken())
                        .status())
                .isEqualTo(400);
    }

    private Map<String, Object> sample(String node, int gpu, double utilisation, Instant time) {
        return Map.of("node", node, "gpu", gpu, "utilisation", utilisation, "time", time.toString());
    }

    @Test
    void aReservationWhoseGpusStayIdleIsFlaggedOnceToItsTenantAndAdmins() {
        Instant t0 = newMonth();
        Setup s = setup(2, 16, 16, false);
        Instant start = t0.plus(Duration.ofHours(1));
        Booked booked = bookOneNode(s, start, t0.plus(Duration.ofHours(6)));
        UUID id = booked.id();
        String node = booked.node();
        CLOCK.set(start.plus(Duration.ofMinutes(90)));

        List<Map<String, Object>> samples = new ArrayList<>();
        for (int minute = 0; minute <= 80; minute += 10) {
            for (int gpu = 0; gpu < 8; gpu++) {
                samples.add(sample(node, gpu, minute < 10 ? 60.0 : 2.5, start.plus(Duration.ofMinutes(minute))));
            }
        }
        assertThat(api.post("/api/v1/telemetry/gpu-utilisation", s.token(), Map.of("samples", samples))
                        .status())
                .isEqualTo(403);
        // up to minute 60 the hour looked back on still holds the busy first minutes
        Api.Response first = api.post(
                "/api/v1/telemetry/gpu-utilisation", adminToken(), Map.of("samples", samples.subList(0, 7 * 8)));
        assertThat(first.status()).isEqualTo(202);
        assertThat(first.json().get("flagged")).isEmpty();

        Api.Response last = api.post("/api/v1/telemetry/gpu-utilisation", adminToken(), Map.of("samples", samples));
        assertThat(last.json().get("accepted").asInt()).isEqualTo(samples.size());
        assertThat(last.json().get("flagged").get(0).asString()).isEqualTo(id.toString());
        assertThat(api.post("/api/v1/telemetry/gpu-utilisation", adminToken(), Map.of("samples", samples))
                        .json()
                        .get("flagged"))
                .isEmpty();

        assertThat(api.get(path(s, "/notifications"), s.token())
                        .json()
                        .get("items")
                        .findValuesAsString("kind"))
                .containsExactly("IDLE_RESERVATION");
        JsonNode report = api.get(
                        "/api/v1/reports/platform?from=" + t0 + "&to="
                                + CLOCK.instant().plusSeconds(1) + "&pool=" + s.pool(),
                        adminToken())
                .json();
        assertThat(report.get("idleReservations").findValuesAsString("reservationId"))
                .containsExactly(id.toString());
    }

    @Test
    void samplesForUnknownNodesOrOutOfRangeAreRefusedAndNothingIsWritten() {
        Instant t0 = newMonth();
        Setup s = setup(1, 8, 8, false);
        String node = bookOneNode(s, t0.plus(Duration.ofHours(1)), t0.plus(Duration.ofHours(3)))
                .node();
        Instant in = t0.plus(Duration.ofHours(2));
        CLOCK.set(in.plus(Duration.ofMinutes(5)));
        Api.Response refused = api.post(
                "/api/v1/telemetry/gpu-utilisation",
                adminToken(),
                Map.of(
                        "samples",
                        List.of(
                                sample(node, 0, 10, in),
                                sample("no-such-node-" + UUID.randomUUID(), 0, 10, in),
                                sample(node, 99, 10, in),
                                sample(node, 1, 140, in),
                                sample(node, 2, 10, t0.plus(Duration.ofDays(1))))));

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json().get("errors").findValuesAsString("field"))
                .containsExactly("samples[1].node", "samples[2].gpu", "samples[3].utilisation", "samples[4].time");
        assertThat(samplesOf(node)).isZero();
        assertThat(api.post("/api/v1/telemetry/gpu-utilisation", adminToken(), Map.of("samples", List.of()))
                        .status())
                .isEqualTo(400);
    }

    @Test
    void samplesStampedInTheFutureOrWhenNoReservationHeldTheNodeAreRefusedWith422AndNothingIsWritten() {
        Instant t0 = newMonth();
        Setup s = setup(1, 8, 8, false);
        Instant start = t0.plus(Duration.ofHours(2));
        Booked booked = bookOneNode(s, start, t0.plus(Duration.ofHours(6)));
        UUID id = booked.id();
        String node = booked.node();

        // the example: 2 minutes before the start, idle samples stamped over the reservation's first hour
        CLOCK.set(start.minus(Duration.ofMinutes(2)));
        List<Map<String, Object>> future = new ArrayList<>();
        for (int minute = 0; minute <= 70; minute += 10) {
            future.add(sample(node, 0, 1.0, start.plus(Duration.ofMinutes(minute))));
        }
        Api.Response refused = api.post("/api/v1/telemetry/gpu-utilisation", adminToken(), Map.of("samples", future));
        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
        assertThat(refused.json().get("errors").findValuesAsString("field"))
                .containsExactly(
                        "samples[0].time",
                        "samples[1].time",
                        "samples[2].time",
                        "samples[3].time",
                        "samples[4].time",
                        "samples[5].time",
                        "samples[6].time",
                        "samples[7].time");
        assertThat(samplesOf(node)).isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM idle_flag WHERE reservation_id = ?")
                        .param(id)
                        .query(Long.class)
                        .single())
                .isZero();

        // within the reservation, up to 30 s ahead of the clock is clock skew; before the start no reservation held it
        CLOCK.set(start.plus(Duration.ofMinutes(10)));
        Api.Response mixed = api.post(
                "/api/v1/telemetry/gpu-utilisation",
                adminToken(),
                Map.of(
                        "samples",
                        List.of(
                                sample(node, 0, 50, CLOCK.instant().plusSeconds(20)),
                                sample(node, 1, 50, start.minusSeconds(60)),
                                sample(node, 2, 50, CLOCK.instant().plusSeconds(31)))));
        assertThat(mixed.status()).isEqualTo(422);
        assertThat(mixed.json().get("errors").findValuesAsString("field"))
                .containsExactly("samples[1].time", "samples[2].time");
        assertThat(mixed.json().get("errors").get(0).get("message").asString()).contains("under no reservation");
        assertThat(samplesOf(node)).isZero();

        Api.Response accepted = api.post(
                "/api/v1/telemetry/gpu-utilisation",
                adminToken(),
                Map.of(
                        "samples",
                        List.of(sample(node, 0, 50, CLOCK.instant().plusSeconds(20)), sample(node, 1, 50, start))));
        assertThat(accepted.status()).isEqualTo(202);
        assertThat(samplesOf(node)).isEqualTo(2);
    }

    record Booked(UUID id, String node) {}

    private Booked bookOneNode(Setup s, Instant start, Instant end) {
        Api.Response booked = book(s, 8, start, end);
        return new Booked(
                UUID.fromString(booked.json().get("id").asString()),
                booked.json().get("nodes").get(0).asString());
    }

    private long samplesOf(String node) {
        return jdbc.sql("SELECT count(*) FROM gpu_utilisation_sample WHERE hostname = ?")
                .param(node)
                .query(Long.class)
                .single();
    }
}
