package dev.allot.booking.calendar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.booking.BookingFixture;
import dev.allot.support.Api;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

class CapacityTests extends BookingFixture {

    @Autowired
    LiveCalendar live;

    @Test
    void theCalendarEqualsABruteForceCountOfTheAllocations() {
        Setup s = setup(6, 48, 48, false);
        Random random = new Random(42);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            Instant start = hour(2).plus(Duration.ofMinutes(random.nextInt(48 * 60)));
            Instant end = start.plus(Duration.ofMinutes(1 + random.nextInt(6 * 60)));
            Api.Response booked = book(s, 8 * (1 + random.nextInt(2)), start, end);
            if (booked.status() == 201) {
                ids.add(booked.json().get("id").asString());
            }
        }
        assertThat(ids).hasSizeGreaterThan(10);
        for (int i = 0; i < ids.size(); i += 4) {
            assertThat(api.post(path(s, ids.get(i)) + "/cancel", s.token(), Map.of())
                            .status())
                    .isEqualTo(200);
        }
        for (int i = 1; i < ids.size(); i += 5) {
            JsonNode r = api.get(path(s, ids.get(i)), s.token()).json();
            api.patch(
                    path(s, ids.get(i)),
                    s.token(),
                    Map.of(
                            "endsAt",
                            Instant.parse(r.get("endsAt").asString())
                                    .plus(Duration.ofMinutes(47))
                                    .toString()));
        }

        Instant from = hour(1);
        Instant to = hour(60);
        assertThat(calendar(s, from, to, "PT1H")).isEqualTo(bruteForce(s, from, to, Duration.ofHours(1)));
        assertThat(calendar(s, from, to, "PT3H")).isEqualTo(bruteForce(s, from, to, Duration.ofHours(3)));

        Map<Instant, Integer> before = calendar(s, from, to, "PT1H");
        assertThat(api.post("/api/v1/capacity/rebuild?pool=" + s.pool(), s.token())
                        .status())
                .isEqualTo(403);
        assertThat(api.post("/api/v1/capacity/rebuild?pool=" + s.pool(), adminToken())
                        .status())
                .isEqualTo(200);
        assertThat(calendar(s, from, to, "PT1H")).isEqualTo(before);
    }

    @Test
    void theCalendarShowsTotalsAndUnhealthyGpusToAnyoneSignedIn() {
        Setup s = setup(3, 24, 24, false);
        api.post("/api/v1/nodes/" + s.nodes().get(2) + "/quarantine", adminToken(), Map.of("reason", "fans"));
        assertThat(book(s, 8, hour(3), hour(4)).status()).isEqualTo(201);
        Api.Response calendar = api.get(
                "/api/v1/capacity?pool=" + s.pool() + "&from=" + hour(3) + "&to=" + hour(5),
                tenantToken(newTenant(), "VIEWER"));
        assertThat(calendar.status()).isEqualTo(200);
        JsonNode first = calendar.json().get("buckets").get(0);
        assertThat(first.get("totalGpus").asInt()).isEqualTo(24);
        assertThat(first.get("unhealthyGpus").asInt()).isEqualTo(8);
        assertThat(first.get("allocatedGpus").asInt()).isEqualTo(8);
        assertThat(first.get("availableGpus").asInt()).isEqualTo(8);
        assertThat(calendar.json().get("buckets").get(1).get("allocatedGpus").asInt())
                .isZero();
        assertThat(api.get("/api/v1/capacity?pool=" + s.pool() + "&step=PT30M", s.token())
                        .status())
                .isEqualTo(400);
        assertThat(api.get("/api/v1/capacity?pool=no-such-pool", s.token()).status())
                .isEqualTo(400);
    }

    @Test
    void theCalendarHeldInMemoryShowsOwnChangesAtOnceAndOtherReplicasChangesWhenAnnounced() {
        Setup s = setup(4, 32, 32, false);
        Instant from = hour(1);
        Instant to = hour(30);
        assertThat(book(s, 8, hour(3), hour(5)).status()).isEqualTo(201);
        await().until(live::listening);
        assertThat(calendar(s, from, to, "PT1H")).isEqualTo(bruteForce(s, from, to, Duration.ofHours(1)));
        assertThat(live.holds(jdbc.sql("SELECT id FROM pool WHERE name = ?")
                        .param(s.pool())
                        .query(UUID.class)
                        .single()))
                .isTrue();

        // loaded now: each change of this replica shows in the very next read
        Api.Response booked = book(s, 16, hour(4).plus(Duration.ofMinutes(30)), hour(9));
        assertThat(booked.status()).isEqualTo(201);
        assertThat(calendar(s, from, to, "PT1H")).isEqualTo(bruteForce(s, from, to, Duration.ofHours(1)));
        assertThat(api.post(path(s, booked.json().get("id").asString()) + "/cancel", s.token(), Map.of())
                        .status())
                .isEqualTo(200);
        assertThat(calendar(s, from, to, "PT1H")).isEqualTo(bruteForce(s, from, to, Duration.ofHours(1)));

        // another replica's change arrives only through its announcement
        Instant otherHour = hour(20);
        Map<Instant, Integer> expected = new TreeMap<>(bruteForce(s, from, to, Duration.ofHours(1)));
        expected.merge(otherHour, 8, Integer::sum);
        changeAsAnotherReplica(s, otherHour, 1);
        await().untilAsserted(() -> assertThat(calendar(s, from, to, "PT1H")).isEqualTo(expected));
        changeAsAnotherReplica(s, otherHour, -1);
        await().untilAsserted(() ->
                assertThat(calendar(s, from, to, "PT1H")).isEqualTo(bruteForce(s, from, to, Duration.ofHours(1))));
    }

    /** What CapacityCalendar does on another replica: one node more (or less) in the hour, announced on commit. */
    private void changeAsAnotherReplica(Setup s, Instant hour, int nodes) {
        jdbc.sql("""
				WITH changed AS (
				    INSERT INTO pool_hour (pool_id, hour, stripe, allocated_nodes)
				    SELECT id, :hour, 3, :nodes FROM pool WHERE name = :pool
				    ON CONFLICT (pool_id, hour, stripe)
				    DO UPDATE SET allocated_nodes = pool_hour.allocated_nodes + excluded.allocated_nodes
				    RETURNING pool_id
				)
				SELECT pg_notify('allot_calendar', CAST(pool_id AS text) || ';' || pg_current_xact_id() || ';'
				    || :epochHour || ':' || :nodes || ';;' || :nonce)
				FROM changed""")
                .param("hour", Timestamp.from(hour))
                .param("nodes", nodes)
                .param("pool", s.pool())
                .param("epochHour", hour.getEpochSecond() / 3600)
                .param("nonce", new Random().nextInt(1_000_000))
                .query()
                .listOfRows();
    }

    private Map<Instant, Integer> calendar(Setup s, Instant from, Instant to, String step) {
        Api.Response response = api.get(
                "/api/v1/capacity?pool=" + s.pool() + "&from=" + from + "&to=" + to + "&step=" + step, s.token());
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        Map<Instant, Integer> allocated = new TreeMap<>();
        response.json()
                .get("buckets")
                .valueStream()
                .forEach(b -> allocated.put(
                        Instant.parse(b.get("start").asString()),
                        b.get("allocatedGpus").asInt()));
        return allocated;
    }

    /** GPUs of nodes with any live allocation touching each bucket, straight from the allocations. */
    private Map<Instant, Integer> bruteForce(Setup s, Instant from, Instant to, Duration step) {
        Map<Instant, Integer> counts = new TreeMap<>();
        for (Instant bucket = from; bucket.isBefore(to); bucket = bucket.plus(step)) {
            int nodes = jdbc.sql("""
					SELECT count(DISTINCT a.node_id) FROM allocation a JOIN pool p ON p.id = a.pool_id
					WHERE p.name = ? AND a.active AND a.during && tstzrange(?, ?, '[)')""")
                    .params(s.pool(), Timestamp.from(bucket), Timestamp.from(bucket.plus(step)))
                    .query(Integer.class)
                    .single();
            counts.put(bucket, nodes * 8);
        }
        return counts;
    }
}
