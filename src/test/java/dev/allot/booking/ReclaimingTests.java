package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.support.Api;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Guarantees are capacity: a guaranteed booking reclaims nodes from other tenants' preemptible reservations. */
class ReclaimingTests extends BookingFixture {

    @Test
    void aGuaranteedBookingPreemptsABorrowerThatFilledThePool() {
        Setup b = setup(4, 0, 32, false);
        prioritize(b, 0, 32, "EXPERIMENT");
        Setup a = tenantOn(b.gpuType(), b.pool(), b.nodes(), 16, 16, false);
        prioritize(a, 16, 16, "PRODUCTION_INFERENCE");

        Api.Response borrowed = book(b, 32, hour(5), hour(9));
        assertThat(borrowed.status()).as(borrowed.toString()).isEqualTo(201);
        assertThat(borrowed.json().get("preemptible").asBoolean()).isTrue();
        String victim = borrowed.json().get("id").asString();
        // a's quote says it fits, by reclaiming: no node is free
        JsonNode quoted = api.post(
                        "/api/v1/tenants/" + a.tenant() + "/quotes", a.token(), body(a, 16, hour(6), hour(8)))
                .json();
        assertThat(quoted.get("fits").asBoolean()).as(quoted.toString()).isTrue();
        assertThat(quoted.get("capacity").get("freeNodes").asInt()).isZero();

        Api.Response guaranteed = book(a, 16, hour(6), hour(8));
        assertThat(guaranteed.status()).as(guaranteed.toString()).isEqualTo(201);
        assertThat(guaranteed.json().get("preemptible").asBoolean()).isFalse();

        Api.Response seen = api.get(path(b, victim), b.token());
        assertThat(seen.json().get("status").asString()).isEqualTo("PREEMPTED");
        assertThat(seen.json().get("preemption").get("at").asString()).isNotBlank();
        assertThat(seen.json().get("preemption").get("reason").asString()).doesNotContain(a.tenant());
        // It started later than the notice, so it let go of every node at once, and nothing of it is charged.
        assertThat(count("SELECT count(*) FROM allocation WHERE reservation_id = CAST(? AS uuid) AND active", victim))
                .isZero();
        assertThat(count("SELECT count(*) FROM quota_usage WHERE reservation_id = CAST(? AS uuid)", victim))
                .isZero();
        assertThat(count(
                        "SELECT count(*) FROM audit_event WHERE action = 'reservation.preempted' AND object_id = ?",
                        victim))
                .isEqualTo(1);
        assertThat(api.post(path(b, victim) + "/cancel", b.token(), Map.of()).status())
                .isEqualTo(409);
        // b is told, once, without naming a
        await().untilAsserted(() -> {
            JsonNode notices = api.get("/api/v1/tenants/" + b.tenant() + "/notifications", b.token())
                    .json()
                    .get("items");
            assertThat(notices.valueStream()
                            .filter(n -> n.get("kind").asString().equals("RESERVATION_PREEMPTED")))
                    .singleElement()
                    .satisfies(n -> {
                        assertThat(n.get("details").get("reservationId").asString())
                                .isEqualTo(victim);
                        assertThat(n.get("details").get("preemption").get("at").asString())
                                .isEqualTo(
                                        seen.json().get("preemption").get("at").asString());
                        assertThat(n.get("message").asString()).contains(victim).doesNotContain(a.tenant());
                    });
        });
        // The freed nodes not taken by a are free again.
        assertThat(book(b, 16, hour(5), hour(9)).status()).isEqualTo(201);
    }

    @Test
    void aGuaranteedBookingThatStartsWithinTheNoticeIsToldWhenReclaimingWouldMakeRoom() {
        Setup b = setup(2, 0, 16, false);
        prioritize(b, 0, 16, "EXPERIMENT");
        Setup a = tenantOn(b.gpuType(), b.pool(), b.nodes(), 16, 16, false);
        prioritize(a, 16, 16, "PRODUCTION_INFERENCE");
        Instant soon = Instant.now().truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(5));
        Api.Response borrowed = book(b, 16, soon, hour(6));
        assertThat(borrowed.status()).as(borrowed.toString()).isEqualTo(201);
        String victim = borrowed.json().get("id").asString();

        // a asks for the pool from ten minutes on: b keeps its nodes for the 30 minutes' notice, so not yet
        Instant asked = Instant.now();
        Api.Response refused = book(a, 16, soon.plus(Duration.ofMinutes(5)), soon.plus(Duration.ofMinutes(65)));
        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        assertThat(refused.json().get("reclaimConsidered").asBoolean()).isTrue();
        Instant earliest = Instant.parse(refused.json().get("earliestStart").asString());
        assertThat(earliest).isBetween(asked.plus(Duration.ofMinutes(31)), asked.plus(Duration.ofMinutes(37)));
        assertThat(earliest.getEpochSecond() % 300).isZero();
        assertThat(api.get(path(b, victim), b.token()).json().get("status").asString())
                .isNotEqualTo("PREEMPTED");

        // booked at that start, it reclaims b's nodes, which b keeps until its notice has run out
        Api.Response later = book(a, 16, earliest, earliest.plus(Duration.ofHours(1)));
        assertThat(later.status()).as(later.toString()).isEqualTo(201);
        assertThat(api.get(path(b, victim), b.token()).json().get("status").asString())
                .isEqualTo("PREEMPTED");
        Instant keptUntil = jdbc.sql("SELECT max(upper(during)) FROM allocation WHERE reservation_id = CAST(? AS uuid) "
                        + "AND active")
                .param(victim)
                .query(Timestamp.class)
                .single()
                .toInstant();
        assertThat(keptUntil).isAfter(asked.plus(Duration.ofMinutes(29))).isBeforeOrEqualTo(earliest);
    }

    @Test
    void reclaimingTakesTheLowestPriorityThenTheNewestAndNeverWhatIsNotPreemptible() {
        Setup keeper = setup(4, 8, 8, false);
        Setup a = tenantOn(keeper.gpuType(), keeper.pool(), keeper.nodes(), 16, 16, false);
        prioritize(a, 16, 16, "PRODUCTION_INFERENCE");
        Setup training = tenantOn(keeper.gpuType(), keeper.pool(), keeper.nodes(), 0, 32, false);
        prioritize(training, 0, 32, "TRAINING");
        Setup experiment = tenantOn(keeper.gpuType(), keeper.pool(), keeper.nodes(), 0, 32, false);
        prioritize(experiment, 0, 32, "EXPERIMENT");

        String kept = id(book(keeper, 8, hour(5), hour(9)));
        String trained = id(book(training, 8, hour(5), hour(9)));
        String older = id(book(experiment, 8, hour(5), hour(9)));
        String newer = id(book(experiment, 8, hour(5), hour(9)));

        assertThat(book(a, 8, hour(6), hour(7)).status()).isEqualTo(201);
        assertThat(status(experiment, newer)).isEqualTo("PREEMPTED");
        assertThat(status(experiment, older)).isEqualTo("CONFIRMED");
        assertThat(status(training, trained)).isEqualTo("CONFIRMED");

        assertThat(book(a, 8, hour(6), hour(7)).status()).isEqualTo(201);
        assertThat(status(experiment, older)).isEqualTo("PREEMPTED");
        assertThat(status(training, trained)).isEqualTo("CONFIRMED");

        // a is at its guarantee: more of it would be borrowed, and borrowing never preempts.
        Api.Response beyond = book(a, 8, hour(6), hour(7));
        assertThat(beyond.status()).as(beyond.toString()).isNotEqualTo(201);
        assertThat(status(training, trained)).isEqualTo("CONFIRMED");
        assertThat(status(keeper, kept)).isEqualTo("CONFIRMED");
        System.out.println(
                "Beyond the guarantee: " + beyond.status() + " " + beyond.json().get("code"));
    }

    @Test
    void borrowedDemandNeverPreemptsAndAReclaimThatCannotFreeEnoughPreemptsNothing() {
        Setup b = setup(4, 0, 32, false);
        Setup burst = tenantOn(b.gpuType(), b.pool(), b.nodes(), 0, 0, true);
        Setup other = tenantOn(b.gpuType(), b.pool(), b.nodes(), 0, 32, false);
        Setup a = tenantOn(b.gpuType(), b.pool(), b.nodes(), 0, 32, false);
        String held = id(book(b, 16, hour(5), hour(9)));
        Api.Response onDemand = book(burst, 16, hour(5), hour(9));
        assertThat(onDemand.status()).as(onDemand.toString()).isEqualTo(201);
        assertThat(onDemand.json().get("preemptible").asBoolean()).isFalse();
        // a's guarantee comes after the on-demand booking (with it before, the on-demand booking would have been
        // refused guarantee_headroom: GuaranteeHeadroomTests)
        setQuota(a.tenant(), a.gpuType(), 32, 32, false);

        Api.Response borrowing = book(other, 8, hour(6), hour(7));
        assertThat(borrowing.status()).isEqualTo(409);
        assertThat(borrowing.json().get("reclaimConsidered").asBoolean()).isFalse();
        assertThat(status(b, held)).isEqualTo("CONFIRMED");

        // A guaranteed booking its owner marks preemptible preempts nothing either.
        Map<String, Object> optional = body(a, 8, hour(6), hour(7));
        optional.put("preemptible", true);
        assertThat(book(a, optional).status()).isEqualTo(409);
        assertThat(status(b, held)).isEqualTo("CONFIRMED");

        // All of b's nodes are not enough for 24 GPUs (the on-demand ones are never taken): b keeps its nodes.
        Api.Response tooFew = book(a, 24, hour(6), hour(7));
        assertThat(tooFew.status()).as(tooFew.toString()).isEqualTo(409);
        assertThat(tooFew.json().get("reclaimConsidered").asBoolean()).isTrue();
        assertThat(status(b, held)).isEqualTo("CONFIRMED");
        assertThat(status(burst, id(onDemand))).isEqualTo("CONFIRMED");

        assertThat(book(a, 16, hour(6), hour(7)).status()).isEqualTo(201);
        assertThat(status(b, held)).isEqualTo("PREEMPTED");
        assertThat(status(burst, id(onDemand))).isEqualTo("CONFIRMED");
    }

    /**
     * Victims are minimal: a guaranteed booking of one node preempts the 1-node borrower, not the newer 3-node one
     * (before, the most recent was taken, or either one when both were booked within the same second, and two of
     * the three nodes then sat idle).
     */
    @Test
    void reclaimingPreemptsTheReservationsThatLoseTheFewestGpuHoursNotTheNewestWhole() {
        Setup large = setup(4, 0, 32, false);
        Setup small = tenantOn(large.gpuType(), large.pool(), large.nodes(), 0, 8, false);
        Setup a = tenantOn(large.gpuType(), large.pool(), large.nodes(), 8, 8, false);
        String one = id(book(small, 8, hour(5), hour(9)));
        String three = id(book(large, 24, hour(5), hour(9)));

        Api.Response guaranteed = book(a, 8, hour(6), hour(7));
        assertThat(guaranteed.status()).as(guaranteed.toString()).isEqualTo(201);
        assertThat(status(small, one)).isEqualTo("PREEMPTED");
        assertThat(status(large, three)).isEqualTo("CONFIRMED");
        // the booking took the node the preempted reservation held
        List<String> taken = guaranteed
                .json()
                .get("nodes")
                .valueStream()
                .map(JsonNode::asString)
                .toList();
        assertThat(api.get(path(small, one), small.token())
                        .json()
                        .get("nodes")
                        .valueStream()
                        .map(JsonNode::asString))
                .containsAnyElementsOf(taken);
    }

    /**
     * Only reservations holding a node the booking takes are preempted: a borrower on a node that a reservation
     * which is not preemptible also holds in the window is left alone, since preempting it frees nothing (before,
     * being the newest, it was preempted first, for nothing).
     */
    @Test
    void reclaimingNeverPreemptsAReservationWhoseNodeStaysHeldByOneThatIsNotPreemptible() {
        Setup keeper = setup(2, 8, 8, false);
        Setup b = tenantOn(keeper.gpuType(), keeper.pool(), keeper.nodes(), 0, 16, false);
        Setup a = tenantOn(keeper.gpuType(), keeper.pool(), keeper.nodes(), 8, 8, false);
        String kept = id(book(keeper, 8, hour(6), hour(9)));
        String whole = id(book(b, 8, hour(5), hour(9)));
        String beside = id(book(b, 8, hour(5), hour(6)));
        String keeperNode = api.get(path(keeper, kept), keeper.token())
                .json()
                .get("nodes")
                .get(0)
                .asString();
        assertThat(api.get(path(b, beside), b.token())
                        .json()
                        .get("nodes")
                        .get(0)
                        .asString())
                .isEqualTo(keeperNode);

        Api.Response guaranteed = book(a, 8, hour(5), hour(9));
        assertThat(guaranteed.status()).as(guaranteed.toString()).isEqualTo(201);
        assertThat(status(b, whole)).isEqualTo("PREEMPTED");
        assertThat(status(b, beside)).isEqualTo("CONFIRMED");
        assertThat(status(keeper, kept)).isEqualTo("CONFIRMED");
    }

    private String status(Setup s, String id) {
        return api.get(path(s, id), s.token()).json().get("status").asString();
    }

    private static String id(Api.Response booked) {
        assertThat(booked.status()).as(booked.toString()).isEqualTo(201);
        return booked.json().get("id").asString();
    }

    private long count(String sql, Object... params) {
        return jdbc.sql(sql).params(params).query(Long.class).single();
    }
}
