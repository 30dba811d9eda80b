package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.support.Api;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A node taken out of service inside a reservation's window is replaced there: the old node keeps the allocation of
 * what it served, the new one holds the rest. Extending and cancelling the reservation then act on each allocation
 * as it is: the extension is not refused for the node it no longer holds, and the cancel gives back only what each
 * node still held (before, it gave the old node's rest back a second time and answered 500). On the moving clock of
 * the billing tests, so that the window has begun.
 */
class ReplacedNodeTests extends BillingTest {

    private record Allocation(String node, Instant from, Instant to, boolean active) {}

    private List<Allocation> allocations(UUID reservation) {
        return jdbc.sql("""
				SELECT n.hostname, lower(a.during), upper(a.during), a.active FROM allocation a
				JOIN node n ON n.id = a.node_id WHERE a.reservation_id = ? ORDER BY lower(a.during), n.hostname""")
                .param(reservation)
                .query((rs, row) -> new Allocation(
                        rs.getString(1),
                        rs.getTimestamp(2).toInstant(),
                        rs.getTimestamp(3).toInstant(),
                        rs.getBoolean(4)))
                .list();
    }

    /** Each node of the pool: its free gaps and live allocations overlap nowhere and leave no hole in the stretch. */
    private void assertGapsAndAllocationsTile(Setup s, Instant from, Instant to) {
        assertThat(jdbc.sql("""
				SELECT count(*) FROM allocation a JOIN free_gap g ON g.node_id = a.node_id AND g.during && a.during
				JOIN node n ON n.id = a.node_id WHERE a.active AND n.hostname = ANY(?)""")
                        .param(s.nodes().toArray(String[]::new))
                        .query(Long.class)
                        .single())
                .as("free gaps overlapping live allocations")
                .isZero();
        List<String> holed = jdbc.sql("""
				SELECT n.hostname FROM node n
				LEFT JOIN LATERAL (
				    SELECT range_agg(during) AS covered FROM (
				        SELECT during FROM free_gap WHERE node_id = n.id
				        UNION ALL SELECT during FROM allocation WHERE node_id = n.id AND active) pieces) c ON true
				WHERE n.hostname = ANY(?) AND NOT coalesce(c.covered @> tstzrange(?, ?, '[)'), false)""")
                .params(s.nodes().toArray(String[]::new), Timestamp.from(from), Timestamp.from(to))
                .query(String.class)
                .list();
        assertThat(holed).as("nodes with a stretch neither free nor allocated").isEmpty();
    }

    @Test
    void aReservationWhoseNodeWasReplacedInsideItsWindowExtendsOnItsNodesAndCancelsGivingEachNodeBackOnlyItsOwnRest() {
        Instant t0 = newMonth();
        Setup s = setup(3, 16, 24, false);
        Instant start = t0.plus(Duration.ofDays(1)).plus(Duration.ofHours(2));
        Instant end = start.plus(Duration.ofHours(8));
        Api.Response booked = book(s, 16, start, end);
        UUID id = UUID.fromString(booked.json().get("id").asString());
        List<String> held =
                booked.json().get("nodes").valueStream().map(n -> n.asString()).toList();
        String failing = held.getFirst();
        String kept = held.get(1);
        String spare =
                s.nodes().stream().filter(n -> !held.contains(n)).findFirst().orElseThrow();

        CLOCK.set(start.plus(Duration.ofMinutes(60)).plusSeconds(20));
        Instant replacedAt = start.plus(Duration.ofMinutes(61));
        assertThat(api.post("/api/v1/nodes/" + failing + "/quarantine", adminToken(), Map.of("reason", "fan failure"))
                        .status())
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> api.get(path(s, "/reservations/" + id), s.token())
                        .json()
                        .get("nodes")
                        .valueStream()
                        .map(n -> n.asString())
                        .sorted()
                        .toList()
                        .equals(List.of(kept, spare).stream().sorted().toList()));
        assertThat(allocations(id))
                .containsExactlyInAnyOrder(
                        new Allocation(failing, start, replacedAt, true),
                        new Allocation(kept, start, end, true),
                        new Allocation(spare, replacedAt, end, true));
        assertGapsAndAllocationsTile(s, t0, t0.plus(Duration.ofDays(20)));

        // extended on the nodes it holds: the quarantined node it no longer holds does not refuse it
        Instant later = end.plus(Duration.ofHours(2));
        String etag = api.get(path(s, "/reservations/" + id), s.token()).header("ETag");
        Api.Response extended = api.patch(
                path(s, "/reservations/" + id), s.token(), Map.of("endsAt", later.toString()), "If-Match", etag);
        assertThat(extended.status()).as(extended.body()).isEqualTo(200);
        assertThat(allocations(id))
                .containsExactlyInAnyOrder(
                        new Allocation(failing, start, replacedAt, true),
                        new Allocation(kept, start, later, true),
                        new Allocation(spare, replacedAt, later, true));
        assertGapsAndAllocationsTile(s, t0, t0.plus(Duration.ofDays(20)));

        // cancelled: each node gives back what it still held, from the next minute on
        CLOCK.set(start.plus(Duration.ofMinutes(90)).plusSeconds(20));
        Instant stop = start.plus(Duration.ofMinutes(91));
        Api.Response cancelled = api.post(path(s, "/reservations/" + id + "/cancel"), s.token(), Map.of());
        assertThat(cancelled.status()).as(cancelled.body()).isEqualTo(200);
        assertThat(allocations(id))
                .containsExactlyInAnyOrder(
                        new Allocation(failing, start, replacedAt, true),
                        new Allocation(kept, start, stop, true),
                        new Allocation(spare, replacedAt, stop, true));
        assertGapsAndAllocationsTile(s, t0, t0.plus(Duration.ofDays(20)));
        // and the nodes are bookable again from then on
        assertThat(api.post("/api/v1/nodes/" + failing + "/release", adminToken(), Map.of("reason", "fan replaced"))
                        .status())
                .isEqualTo(200);
        CLOCK.set(start.plus(Duration.ofHours(2)));
        book(s, 24, start.plus(Duration.ofHours(3)), start.plus(Duration.ofHours(5)));
    }

    /** An admin quarantines the node; waits until the reservation holding it lists its replacement instead. */
    private void quarantineAndAwaitReplacement(Setup s, UUID reservation, String node, String reason) {
        assertThat(api.post("/api/v1/nodes/" + node + "/quarantine", adminToken(), Map.of("reason", reason))
                        .status())
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> api.get(path(s, "/reservations/" + reservation), s.token())
                        .json()
                        .get("nodes")
                        .valueStream()
                        .map(n -> n.asString())
                        .noneMatch(node::equals));
    }

    /**
     * Credits come from what the reservation held: the old node's outage is credited only while it held the node,
     * and a node replaced before the window, down for all of it, is credited nothing. Before, billing kept the node
     * list from booking time and credited the replaced node's outage for the whole window (7.64 of 7.73 GPU-hours
     * credited where about 3.8 was right, in the example).
     */
    @Test
    void outagesAreCreditedOnlyForTheHoursTheReservationHeldTheNodeSoAReplacedNodeCreditsNothingMore() {
        Instant t0 = newMonth();
        Setup s = setup(4, 16, 24, false);
        Instant start = t0.plus(Duration.ofDays(1)).plus(Duration.ofHours(2));
        Instant end = start.plus(Duration.ofHours(4));
        Api.Response before = book(s, 8, start, end);
        UUID early = UUID.fromString(before.json().get("id").asString());
        String replacedEarly = before.json().get("nodes").get(0).asString();

        // replaced before its window: the node holds nothing of it, and stays out for the whole window
        quarantineAndAwaitReplacement(s, early, replacedEarly, "PSU failure");
        assertThat(allocations(early))
                .filteredOn(Allocation::active)
                .extracting(Allocation::node)
                .doesNotContain(replacedEarly);

        // another reservation whose node fails an hour into its window and is replaced then
        Api.Response inside = book(s, 8, start, end);
        UUID late = UUID.fromString(inside.json().get("id").asString());
        String failing = inside.json().get("nodes").get(0).asString();
        CLOCK.set(start.plus(Duration.ofMinutes(60)).plusSeconds(20));
        Instant replacedAt = start.plus(Duration.ofMinutes(61));
        quarantineAndAwaitReplacement(s, late, failing, "XID 79");

        await().atMost(Duration.ofSeconds(30))
                .until(() -> jdbc.sql("SELECT count(*) FROM node_outage WHERE hostname = ANY(?)")
                                .param(new String[] {replacedEarly, failing})
                                .query(Long.class)
                                .single()
                        == 2);
        CLOCK.set(end.plus(Duration.ofHours(2)));
        metering.meterDue(CLOCK.instant());
        // 8 GPUs for 4 hours each, metered in full
        assertThat(gpuSeconds(early, "USAGE", "RESERVED")).isEqualTo(8L * 4 * 3600);
        assertThat(gpuSeconds(late, "USAGE", "RESERVED")).isEqualTo(8L * 4 * 3600);
        // the node replaced before the window: no credit (its replacement served the whole window)
        assertThat(gpuSeconds(early, "CREDIT", "RESERVED")).isZero();
        // the node replaced inside the window: credited from its quarantine to its replacement only
        Instant quarantinedAt = jdbc.sql(
                        "SELECT lower(during) FROM node_outage WHERE hostname = ? ORDER BY 1 DESC LIMIT 1")
                .param(failing)
                .query(Timestamp.class)
                .single()
                .toInstant();
        assertThat(gpuSeconds(late, "CREDIT", "RESERVED"))
                .isEqualTo(8L * Duration.between(quarantinedAt, replacedAt).toSeconds());
        assertThat(unbalancedTransactions()).isZero();
    }
}
