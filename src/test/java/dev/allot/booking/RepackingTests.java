package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Guarantees are counted hour by hour, a booking needs the same nodes for its whole window: a guaranteed booking
 * that finds a free node in every hour but none in all of them moves reservations that have not started.
 */
class RepackingTests extends BookingFixture {

    @Test
    void aGuaranteedBookingMovesAReservationThatHasNotStartedToFindOneNodeForItsWholeWindow() {
        // two nodes; b holds one node 3-4 h from now and one (the other) 4-5 h from now, each within its guarantee
        Scattered s = scattered();

        Api.Response booked = book(s.a(), 8, hour(3), hour(5));

        assertThat(booked.status()).as(booked.toString()).isEqualTo(201);
        assertThat(booked.json().get("preemptible").asBoolean()).isFalse();
        String node = booked.json().get("nodes").get(0).asString();
        // b's reservations share the other node now, each keeping its window and size
        Map<String, List<String>> nodesOfB =
                Map.of(s.first(), nodes(s.b(), s.first()), s.second(), nodes(s.b(), s.second()));
        assertThat(nodesOfB.values())
                .allSatisfy(held -> assertThat(held).hasSize(1).doesNotContain(node));
        assertThat(nodesOfB.get(s.first())).isEqualTo(nodesOfB.get(s.second()));
        assertThat(api.get(path(s.b(), s.first()), s.b().token())
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("CONFIRMED");
        assertThat(api.get(path(s.b(), s.second()), s.b().token())
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("CONFIRMED");
        assertThat(count(
                        "SELECT count(*) FROM audit_event WHERE action = 'reservation.repacked' AND object_id = ANY(?)",
                        (Object) new String[] {s.first(), s.second()}))
                .isEqualTo(1);
        assertThat(doubleBooked(s.a().pool())).isZero();
        // the gaps stay the complement of the allocations: the pool is full for the window, and free after it
        assertThat(book(s.c(), 8, hour(3), hour(4)).status()).isEqualTo(409);
        assertThat(book(s.c(), 16, hour(5), hour(6)).status()).isEqualTo(201);
    }

    @Test
    void reservationsWhoseClustersAreBeingBuiltStayWhereTheyAreAndTheGuaranteedBookingIsRefused() {
        Scattered s = scattered();
        // their clusters are being built (the stage is read from the cluster)
        UUID[] ids = {UUID.fromString(s.first()), UUID.fromString(s.second())};
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> count("SELECT count(*) FROM cluster WHERE reservation_id = ANY(?)", (Object) ids) == 2);
        jdbc.sql("UPDATE cluster SET state = 'CREATING', state_changed_at = now() WHERE reservation_id = ANY(?)")
                .param(ids)
                .update();

        Api.Response refused = book(s.a(), 8, hour(3), hour(5));

        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        assertThat(refused.json().get("reclaimConsidered").asBoolean()).isTrue();
        assertThat(count(
                        "SELECT count(*) FROM audit_event WHERE action = 'reservation.repacked' AND object_id = ANY(?)",
                        (Object) new String[] {s.first(), s.second()}))
                .isZero();
        assertThat(nodes(s.b(), s.first())).isNotEqualTo(nodes(s.b(), s.second()));
    }

    /**
     * Every node is held in the window by a reservation that is not preemptible (it may only move), so no node can
     * be freed by preemption alone: reclaiming and repacking plan together. The booking takes the node of one
     * borrower and moves what else is there; the other borrower, on a node the booking does not take, is left alone.
     * Before, reclaiming fell back to preempting by priority and age, newest first: the other borrower first, whose
     * node the booking never took.
     */
    @Test
    void whenNoNodeCanBeFreedByPreemptionAloneOnlyTheBorrowerOnTheNodeTheBookingTakesIsPreempted() {
        Setup c = setup(3, 0, 24, false);
        prioritize(c, 0, 24, "EXPERIMENT");
        Setup a = tenantOn(c.gpuType(), c.pool(), c.nodes(), 8, 8, false);
        prioritize(a, 8, 8, "PRODUCTION_INFERENCE");
        Setup b = tenantOn(c.gpuType(), c.pool(), c.nodes(), 8, 8, false);
        prioritize(b, 8, 8, "TRAINING");
        Setup d = tenantOn(c.gpuType(), c.pool(), c.nodes(), 8, 8, false);
        String first = createdId(book(b, 8, hour(3), hour(4)));
        String n0 = nodes(b, first).getFirst();
        String lentLater = createdId(book(c, 8, hour(4), hour(5)));
        assertThat(nodes(c, lentLater)).as("best fit").containsExactly(n0);
        String lentEarlier = createdId(book(c, 8, hour(3), hour(4)));
        String n1 = nodes(c, lentEarlier).getFirst();
        String second = createdId(book(b, 8, hour(4), hour(5)));
        assertThat(nodes(b, second)).as("best fit").containsExactly(n1);
        String third = createdId(book(d, 8, hour(4), hour(5)));
        String n2 = nodes(d, third).getFirst();
        assertThat(List.of(n0, n1, n2)).doesNotHaveDuplicates();

        Api.Response booked = book(a, 8, hour(3), hour(5));

        assertThat(booked.status()).as(booked.toString()).isEqualTo(201);
        assertThat(booked.json().get("nodes").get(0).asString()).isEqualTo(n0);
        assertThat(api.get(path(c, lentLater), c.token()).json().get("status").asString())
                .isEqualTo("PREEMPTED");
        assertThat(api.get(path(c, lentEarlier), c.token()).json().get("status").asString())
                .isEqualTo("CONFIRMED");
        // b's first reservation moved to where the third node was free; nothing else moved
        assertThat(nodes(b, first)).containsExactly(n2);
        assertThat(nodes(b, second)).containsExactly(n1);
        assertThat(nodes(d, third)).containsExactly(n2);
        assertThat(doubleBooked(a.pool())).isZero();
    }

    /** Tenants a and b (8 GPUs guaranteed each), c (borrows); b's two reservations scattered over the two nodes. */
    private record Scattered(Setup a, Setup b, Setup c, String first, String second) {}

    private Scattered scattered() {
        Setup c = setup(2, 0, 16, false);
        prioritize(c, 0, 16, "EXPERIMENT");
        Setup a = tenantOn(c.gpuType(), c.pool(), c.nodes(), 8, 8, false);
        prioritize(a, 8, 8, "PRODUCTION_INFERENCE");
        Setup b = tenantOn(c.gpuType(), c.pool(), c.nodes(), 8, 8, false);
        prioritize(b, 8, 8, "TRAINING");
        Api.Response first = book(b, 8, hour(3), hour(4));
        assertThat(first.status()).as(first.toString()).isEqualTo(201);
        // c borrows the same node right after, so that b's second reservation lands on the other node
        String firstNode = first.json().get("nodes").get(0).asString();
        Api.Response borrowed = book(c, 8, hour(4), hour(5));
        assertThat(borrowed.status()).as(borrowed.toString()).isEqualTo(201);
        assertThat(borrowed.json().get("nodes").get(0).asString())
                .as("best fit")
                .isEqualTo(firstNode);
        Api.Response second = book(b, 8, hour(4), hour(5));
        assertThat(second.status()).as(second.toString()).isEqualTo(201);
        assertThat(second.json().get("nodes").get(0).asString()).isNotEqualTo(firstNode);
        assertThat(api.post(path(c, borrowed.json().get("id").asString()) + "/cancel", c.token(), Map.of())
                        .status())
                .isEqualTo(200);
        return new Scattered(
                a,
                b,
                c,
                first.json().get("id").asString(),
                second.json().get("id").asString());
    }

    private List<String> nodes(Setup s, String id) {
        return api.get(path(s, id), s.token())
                .json()
                .get("nodes")
                .valueStream()
                .map(n -> n.asString())
                .toList();
    }

    private long count(String sql, Object... params) {
        return jdbc.sql(sql).params(params).query(Long.class).single();
    }

    private int doubleBooked(String pool) {
        return jdbc.sql("""
				SELECT count(*) FROM allocation a JOIN allocation b
				  ON a.node_id = b.node_id AND a.id < b.id AND a.active AND b.active AND a.during && b.during
				WHERE a.pool_id = (SELECT id FROM pool WHERE name = ?)""").param(pool).query(Integer.class).single();
    }
}
