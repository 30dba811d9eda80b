package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.booking.events.ReservationCancelled;
import dev.allot.booking.events.ReservationConfirmed;
import dev.allot.booking.events.ReservationExtended;
import dev.allot.support.Api;
import dev.allot.support.RecordedEvents;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

class BookingTests extends BookingFixture {

    @Autowired
    RecordedEvents events;

    @Test
    void aMemberBooksWholeNodesAndSeesTheRateClassSplitAndPrice() {
        Setup s = setup(4, 8, 32, false);
        Api.Response booked = book(s, 16, hour(24), hour(26));
        assertThat(booked.status()).as(booked.body()).isEqualTo(201);
        JsonNode r = booked.json();
        assertThat(r.get("status").asString()).isEqualTo("CONFIRMED");
        assertThat(r.get("nodes").size()).isEqualTo(2);
        assertThat(r.get("gpuType").asString()).isEqualTo(s.gpuType());
        assertThat(r.get("cluster").get("orchestrator").asString()).isEqualTo("SLURM");
        // 8 GPUs within the guarantee at 2.00, 8 borrowed at 1.50, for two hours.
        assertThat(r.get("quote").get("total").decimalValue()).isEqualByComparingTo("56.00");
        assertThat(r.get("quote").get("split").get(0).get("rateClass").asString())
                .isEqualTo("RESERVED");
        assertThat(r.get("quote").get("split").get(1).get("gpuHours").decimalValue())
                .isEqualByComparingTo("16");
        assertThat(r.get("preemptible").asBoolean()).isTrue();

        Api.Response read = api.get(path(s, r.get("id").asString()), s.token());
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.header("ETag")).isEqualTo(booked.header("ETag"));
        assertThat(read.json().get("nodes")).isEqualTo(r.get("nodes"));
        assertThat(jdbc.sql("SELECT count(*) FROM allocation WHERE reservation_id = ?::uuid AND active")
                        .param(r.get("id").asString())
                        .query(Integer.class)
                        .single())
                .isEqualTo(2);
        assertThat(events.ofType(ReservationConfirmed.class))
                .anyMatch(e -> e.reservationId().toString().equals(r.get("id").asString()));

        Api.Response listed = api.get("/api/v1/tenants/" + s.tenant() + "/reservations?status=CONFIRMED", s.token());
        assertThat(listed.json().get("totalItems").asInt()).isEqualTo(1);
        assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/reservations?status=ACTIVE", s.token())
                        .json()
                        .get("totalItems")
                        .asInt())
                .isZero();
    }

    @Test
    void aBookingTakesNodesOfOneInfinibandBlockAndLeavesTheLeastFragments() {
        Setup s = setup(8, 64, 64, false);
        // Node n0 is busy right after the window: the tightest fit, so it is taken when its block is chosen.
        Api.Response first = book(s, 8, hour(30), hour(32));
        assertThat(first.status()).isEqualTo(201);
        String busy = first.json().get("nodes").get(0).asString();

        Api.Response booked = book(s, 24, hour(28), hour(30));
        assertThat(booked.status()).isEqualTo(201);
        Set<String> blocks = new HashSet<>();
        booked.json()
                .get("nodes")
                .valueStream()
                .forEach(n -> blocks.add(api.get("/api/v1/nodes/" + n.asString(), adminToken())
                        .json()
                        .get("ibBlock")
                        .asString()));
        assertThat(blocks).hasSize(1);
        assertThat(booked.json().get("nodes").valueStream().map(JsonNode::asString))
                .contains(busy);
    }

    @Test
    void aNodeIsNeverHeldTwiceAndALostRaceWritesNothing() {
        Setup s = setup(2, 32, 32, false);
        assertThat(book(s, 16, hour(10), hour(13)).status()).isEqualTo(201);
        long before = writesOf(s.tenant());
        Api.Response refused = book(s, 8, hour(12), hour(14));
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.json().get("code").asString()).isEqualTo("capacity_not_available");
        assertThat(writesOf(s.tenant())).isEqualTo(before);
        // Back to back is fine: windows are half-open.
        assertThat(book(s, 16, hour(13), hour(14)).status()).isEqualTo(201);
        // Counted once committed: two bookings, not the refused one.
        assertThat(api.get("/actuator/prometheus", METRICS_TOKEN, "Accept", "text/plain")
                        .body())
                .contains("allot_bookings_total{outcome=\"confirmed\",pool=\"" + s.pool() + "\"} 2.0");
    }

    @Test
    void aQuotaRefusalNamesTheLimitAndByHowMuch() {
        Setup s = setup(4, 8, 16, false);
        assertThat(book(s, 16, hour(5), hour(7)).status()).isEqualTo(201);
        Api.Response over = book(s, 8, hour(6), hour(8));
        assertThat(over.status()).isEqualTo(422);
        assertThat(over.json().get("code").asString()).isEqualTo("quota_exceeded");
        assertThat(over.json().get("limit").asString()).isEqualTo("maxGpus");
        assertThat(over.json().get("exceededBy").asInt()).isEqualTo(8);
        assertThat(book(s, 8, hour(7), hour(8)).status()).isEqualTo(201);

        Api.Response tooLong = book(s, 8, hour(100), hour(100).plus(Duration.ofDays(31)));
        assertThat(tooLong.json().get("limit").asString()).isEqualTo("maxWindow");
        assertThat(tooLong.json().get("field").asString()).isEqualTo("endsAt");
        Api.Response tooFar = book(s, 8, hour(24 * 61), hour(24 * 61 + 1));
        assertThat(tooFar.json().get("limit").asString()).isEqualTo("maxAdvance");
        assertThat(tooFar.json().get("field").asString()).isEqualTo("startsAt");

        Setup other = setup(2, 8, 8, false);
        setQuota(other.tenant(), policy(s.gpuType(), 8, 8, false));
        Api.Response noPolicy = book(other, 8, hour(5), hour(6));
        assertThat(noPolicy.status()).isEqualTo(422);
        assertThat(noPolicy.json().get("limit").asString()).isEqualTo("policy");
    }

    @Test
    void burstBooksBeyondTheQuotaAtTheOnDemandRate() {
        Setup s = setup(4, 8, 8, true);
        Api.Response booked = book(s, 24, hour(5), hour(6));
        assertThat(booked.status()).isEqualTo(201);
        JsonNode split = booked.json().get("quote").get("split");
        assertThat(split.get(0).get("rateClass").asString()).isEqualTo("RESERVED");
        assertThat(split.get(1).get("rateClass").asString()).isEqualTo("ON_DEMAND");
        assertThat(split.get(1).get("gpuHours").decimalValue()).isEqualByComparingTo("16");
        assertThat(booked.json().get("quote").get("total").decimalValue()).isEqualByComparingTo("80.00");
    }

    @Test
    void aMonthlyBudgetRefusesWhatWouldPassIt() {
        Setup s = setup(4, 32, 32, false);
        Map<String, Object> policy = policy(s.gpuType(), 32, 32, false);
        policy.put("monthlyBudget", 100);
        setQuota(s.tenant(), policy);
        // The 10th of next month: both bookings fall in one calendar month.
        Instant start = YearMonth.now(ZoneOffset.UTC)
                .plusMonths(1)
                .atDay(10)
                .atTime(10, 0)
                .toInstant(ZoneOffset.UTC);
        assertThat(book(s, 8, start, start.plus(Duration.ofHours(5))).status()).isEqualTo(201); // 80.00
        Api.Response over = book(s, 8, start.plus(Duration.ofHours(6)), start.plus(Duration.ofHours(8)));
        assertThat(over.status()).isEqualTo(422);
        assertThat(over.json().get("limit").asString()).isEqualTo("monthlyBudget");
        assertThat(over.json().get("exceededBy").decimalValue()).isEqualByComparingTo("12.00");
    }

    @Test
    void cancellingFreesTheNodesForOthersAndCannotBeRepeated() {
        Setup s = setup(2, 16, 16, false);
        String id = book(s, 16, hour(40), hour(44)).json().get("id").asString();
        Setup other = tenantOn(s.gpuType(), s.pool(), s.nodes(), 16, 16, false);
        assertThat(book(other, 8, hour(41), hour(42)).status()).isEqualTo(409);

        Api.Response cancelled = api.post(path(s, id) + "/cancel", s.token(), Map.of());
        assertThat(cancelled.status()).isEqualTo(200);
        assertThat(cancelled.json().get("status").asString()).isEqualTo("CANCELLED");
        assertThat(jdbc.sql("SELECT count(*) FROM quota_usage WHERE reservation_id = ?::uuid")
                        .param(id)
                        .query(Integer.class)
                        .single())
                .isZero();
        assertThat(book(other, 16, hour(40), hour(44)).status()).isEqualTo(201);
        assertThat(api.post(path(s, id) + "/cancel", s.token(), Map.of()).status())
                .isEqualTo(409);
        assertThat(events.ofType(ReservationCancelled.class))
                .anyMatch(e -> e.reservationId().toString().equals(id));
    }

    @Test
    void extendingNeedsTheCurrentETagAndTheSameNodesFree() {
        Setup s = setup(1, 16, 16, false);
        Api.Response booked = book(s, 8, hour(50), hour(52));
        String id = booked.json().get("id").asString();
        Api.Response stale =
                api.patch(path(s, id), s.token(), Map.of("endsAt", hour(53).toString()), "If-Match", "\"99\"");
        assertThat(stale.status()).isEqualTo(412);

        Api.Response extended = api.patch(
                path(s, id), s.token(), Map.of("endsAt", hour(53).toString()), "If-Match", booked.header("ETag"));
        assertThat(extended.status()).as(extended.body()).isEqualTo(200);
        assertThat(extended.json().get("endsAt").asString()).isEqualTo(hour(53).toString());
        assertThat(extended.json().get("quote").get("total").decimalValue()).isEqualByComparingTo("48.00");
        assertThat(extended.header("ETag")).isNotEqualTo(booked.header("ETag"));

        assertThat(book(s, 8, hour(54), hour(55)).status()).isEqualTo(201);
        Api.Response unconditional = api.patch(path(s, id), s.token(), Map.of("endsAt", hour(54).toString()));
        assertThat(unconditional.status()).isEqualTo(428);
        assertThat(unconditional.json().get("code").asString()).isEqualTo("precondition_required");
        assertThat(unconditional.json().get("status").asInt()).isEqualTo(428);
        String current = extended.header("ETag");
        Api.Response blocked =
                api.patch(path(s, id), s.token(), Map.of("endsAt", hour(55).toString()), "If-Match", current);
        assertThat(blocked.status()).isEqualTo(409);
        assertThat(blocked.json().get("code").asString()).isEqualTo("capacity_not_available");
        Api.Response earlier =
                api.patch(path(s, id), s.token(), Map.of("endsAt", hour(51).toString()), "If-Match", current);
        assertThat(earlier.status()).isEqualTo(400);
        assertThat(earlier.json().get("errors").get(0).get("field").asString()).isEqualTo("endsAt");
        assertThat(events.ofType(ReservationExtended.class))
                .anyMatch(e -> e.reservationId().toString().equals(id));
    }

    @Test
    void aQuarantinedNodeIsNeverAllocatedAndQuarantineNamesTheReservationsItAffects() {
        Setup s = setup(2, 16, 16, false);
        Api.Response booked = book(s, 8, hour(60), hour(61));
        String node = booked.json().get("nodes").get(0).asString();
        Api.Response quarantined =
                api.post("/api/v1/nodes/" + node + "/quarantine", adminToken(), Map.of("reason", "ECC errors"));
        assertThat(quarantined
                        .json()
                        .get("affectedReservations")
                        .get(0)
                        .get("id")
                        .asString())
                .isEqualTo(booked.json().get("id").asString());
        Api.Response second = book(s, 8, hour(70), hour(71));
        assertThat(second.status()).as(second.body()).isEqualTo(201);
        assertThat(second.json().get("nodes").get(0).asString()).isNotEqualTo(node);
        assertThat(book(s, 8, hour(70), hour(71)).status()).isEqualTo(409);
    }

    @Test
    void aQuoteSaysWhetherItFitsAndWhatItCostsWithoutBooking() {
        Setup s = setup(2, 8, 16, false);
        Api.Response quote =
                api.post("/api/v1/tenants/" + s.tenant() + "/quotes", s.token(), body(s, 16, hour(5), hour(6)));
        assertThat(quote.status()).isEqualTo(200);
        assertThat(quote.json().get("fits").asBoolean()).isTrue();
        assertThat(quote.json().get("quote").get("total").decimalValue()).isEqualByComparingTo("28.00");
        Api.Response refused =
                api.post("/api/v1/tenants/" + s.tenant() + "/quotes", s.token(), body(s, 24, hour(5), hour(6)));
        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        Api.Response overQuota = api.post(
                "/api/v1/tenants/" + s.tenant() + "/quotes",
                s.token(),
                body(s, 8, hour(5), hour(5).plus(Duration.ofDays(40))));
        assertThat(overQuota.json().get("fits").asBoolean()).isFalse();
        assertThat(overQuota.json().get("refusal").get("limit").asString()).isEqualTo("maxWindow");
        assertThat(reservationsOf(s.tenant())).isZero();
    }

    @Test
    void earliestFitSkipsWindowsTheQuotaRefusesAndAnswersTheNextOnes() {
        Setup s = setup(2, 8, 8, false);
        assertThat(book(s, 8, hour(3), hour(6)).status()).isEqualTo(201);
        // a free node exists at once, but 8 more GPUs would pass the tenant's maxGpus of 8 until hour 6
        Api.Response earliest = api.get(
                "/api/v1/capacity/earliest?pool=" + s.pool() + "&gpus=8&duration=PT2H&after=" + hour(2) + "&tenant="
                        + s.tenant(),
                s.token());
        assertThat(earliest.status()).as(earliest.body()).isEqualTo(200);
        for (JsonNode window : earliest.json().get("windows")) {
            assertThat(Instant.parse(window.get("startsAt").asString())).isAfterOrEqualTo(hour(6));
        }
    }

    @Test
    void theEarliestWindowsFitCapacityAndQuota() {
        Setup s = setup(1, 8, 8, false);
        assertThat(book(s, 8, hour(3), hour(6)).status()).isEqualTo(201);
        Api.Response earliest = api.get(
                "/api/v1/capacity/earliest?pool=" + s.pool() + "&gpus=8&duration=PT2H&after=" + hour(2) + "&tenant="
                        + s.tenant(),
                s.token());
        assertThat(earliest.status()).as(earliest.body()).isEqualTo(200);
        JsonNode first = earliest.json().get("windows").get(0);
        assertThat(first.get("startsAt").asString()).isEqualTo(hour(6).toString());
        assertThat(first.get("quote").get("total").decimalValue()).isEqualByComparingTo("32.00");
    }

    @Test
    void everyNewTenantEndpointAnswers404ToAnotherTenant() {
        Setup s = setup(1, 8, 8, false);
        String id = book(s, 8, hour(5), hour(6)).json().get("id").asString();
        Setup other = tenantOn(s.gpuType(), s.pool(), s.nodes(), 8, 8, false);
        String foreign = "/api/v1/tenants/" + other.tenant() + "/reservations/" + id;
        assertThat(api.get(foreign, other.token()).status()).isEqualTo(404);
        assertThat(api.patch(foreign, other.token(), Map.of("endsAt", hour(7).toString()))
                        .status())
                .isEqualTo(404);
        assertThat(api.post(foreign + "/cancel", other.token(), Map.of()).status())
                .isEqualTo(404);
        String mine = "/api/v1/tenants/" + s.tenant();
        assertThat(api.get(mine + "/reservations/" + id, other.token()).status())
                .isEqualTo(404);
        assertThat(api.get(mine + "/reservations", other.token()).status()).isEqualTo(404);
        assertThat(api.post(mine + "/reservations", other.token(), body(s, 8, hour(8), hour(9)))
                        .status())
                .isEqualTo(404);
        assertThat(api.post(mine + "/quotes", other.token(), body(s, 8, hour(8), hour(9)))
                        .status())
                .isEqualTo(404);
        assertThat(api.get(mine + "/quota", other.token()).status()).isEqualTo(404);
        assertThat(api.post(mine + "/reservations/" + id + "/cancel", other.token(), Map.of())
                        .status())
                .isEqualTo(404);
        assertThat(api.get(
                                "/api/v1/capacity/earliest?pool=" + s.pool() + "&gpus=8&duration=PT1H&tenant="
                                        + s.tenant(),
                                other.token())
                        .status())
                .isEqualTo(404);
        assertThat(api.get(mine + "/reservations/" + id, s.token()).status()).isEqualTo(200);
    }

    @Test
    void aViewerAndASuspendedTenantCannotBook() {
        Setup s = setup(1, 8, 8, false);
        String viewer = tenantToken(s.tenant(), "VIEWER");
        assertThat(api.post("/api/v1/tenants/" + s.tenant() + "/reservations", viewer, body(s, 8, hour(5), hour(6)))
                        .status())
                .isEqualTo(403);
        api.patch("/api/v1/tenants/" + s.tenant(), adminToken(), Map.of("status", "SUSPENDED"));
        Api.Response suspended = book(s, 8, hour(5), hour(6));
        assertThat(suspended.status()).isEqualTo(403);
        assertThat(suspended.json().get("code").asString()).isEqualTo("tenant_suspended");
        assertThat(writesOf(s.tenant())).isZero();
    }

    @Test
    void eachBadInputIsRefusedNamingTheFieldAndWritesNothing() {
        Setup s = setup(2, 64, 64, false);
        Setup other = tenantOn(s.gpuType(), s.pool(), s.nodes(), 8, 8, false);
        newProject(other.tenant(), "theirs");
        record Case(Map<String, Object> body, int status, String field) {}
        List<Case> cases = List.of(
                new Case(with(s, "endsAt", hour(4).toString()), 400, "endsAt"),
                new Case(with(s, "startsAt", hour(-2).toString()), 400, "startsAt"),
                new Case(with(s, "gpus", 0), 400, "gpus"),
                new Case(with(s, "gpus", -8), 400, "gpus"),
                new Case(with(s, "gpus", 12), 400, "gpus"),
                new Case(with(s, "gpus", 24), 400, "gpus"),
                new Case(with(s, "pool", "no-such-pool"), 400, "pool"),
                new Case(with(s, "project", "no-such-project"), 400, "project"),
                new Case(with(s, "project", "theirs"), 400, "project"),
                new Case(with(s, "startsAt", "2030-01-05T09:00:00+02:00"), 400, "startsAt"),
                new Case(with(s, "startsAt", "tomorrow"), 400, "startsAt"),
                new Case(with(s, "startsAt", hour(5).plusSeconds(30).toString()), 400, "startsAt"),
                new Case(with(s, "gpus", "eight"), 400, "gpus"),
                new Case(with(s, "cluster", Map.of("orchestrator", "NOMAD")), 400, "cluster.orchestrator"),
                new Case(
                        with(s, "cluster", Map.of("orchestrator", "SLURM", "cudaDriver", "999.99")),
                        400,
                        "cluster.cudaDriver"),
                new Case(
                        with(s, "cluster", Map.of("orchestrator", "SLURM", "sshPublicKeys", List.of("not a key"))),
                        400,
                        "cluster.sshPublicKeys[0]"),
                // valid base64 whose embedded type is not the one named, a cut key, a control character in the
                // comment, too many keys
                new Case(
                        with(
                                s,
                                "cluster",
                                Map.of(
                                        "orchestrator",
                                        "SLURM",
                                        "sshPublicKeys",
                                        List.of(SSH_KEY.replace("ssh-ed25519", "ssh-rsa")))),
                        400,
                        "cluster.sshPublicKeys[0]"),
                new Case(
                        with(
                                s,
                                "cluster",
                                Map.of(
                                        "orchestrator",
                                        "SLURM",
                                        "sshPublicKeys",
                                        List.of(SSH_KEY, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBx cut@paste"))),
                        400,
                        "cluster.sshPublicKeys[1]"),
                new Case(
                        with(
                                s,
                                "cluster",
                                Map.of("orchestrator", "SLURM", "sshPublicKeys", List.of(SSH_KEY + "\u0000\u001b[2J"))),
                        400,
                        "cluster.sshPublicKeys[0]"),
                new Case(
                        with(
                                s,
                                "cluster",
                                Map.of("orchestrator", "SLURM", "sshPublicKeys", Collections.nCopies(33, SSH_KEY))),
                        400,
                        "cluster.sshPublicKeys"),
                new Case(with(s, "endsAt", hour(5).plus(Duration.ofDays(45)).toString()), 422, "endsAt"),
                new Case(
                        with(
                                with(s, "startsAt", hour(24 * 70).toString()),
                                "endsAt",
                                hour(24 * 70 + 1).toString()),
                        422,
                        "startsAt"));
        for (Case c : cases) {
            Api.Response response = book(s, c.body());
            assertThat(response.status()).as(c + " -> " + response.body()).isEqualTo(c.status());
            assertThat(response.contentType()).startsWith("application/problem+json");
            String field = c.status() == 400
                    ? response.json().get("errors").get(0).get("field").asString()
                    : response.json().get("field").asString();
            assertThat(field).as(response.body()).isEqualTo(c.field());
        }
        assertThat(api.post("/api/v1/tenants/" + s.tenant() + "/reservations", s.token(), "{\"project\": ")
                        .status())
                .isEqualTo(400);
        assertThat(api.post(
                                "/api/v1/tenants/" + s.tenant() + "/reservations",
                                s.token(),
                                "{\"x\":\"" + "a".repeat(300_000) + "\"}")
                        .status())
                .isEqualTo(413);
        assertThat(writesOf(s.tenant())).isZero();
    }

    private static Map<String, Object> with(Setup s, String field, Object value) {
        return with(body(s, 8, hour(5), hour(6)), field, value);
    }

    private static Map<String, Object> with(Map<String, Object> body, String field, Object value) {
        body.put(field, value);
        return body;
    }
}
