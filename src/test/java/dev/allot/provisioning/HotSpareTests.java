package dev.allot.provisioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.provisioning.driver.fake.FakeDriver;
import dev.allot.support.Api;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Hot spares on the fake driver: a pool's {@code spareNodes} are held out of quotes, bookings and the calendar,
 * replacements take them first, and one spare never goes to two clusters.
 */
class HotSpareTests extends LifecycleTest {

    @Autowired
    FakeDriver fake;

    @BeforeEach
    void resetTheFakeDriver() {
        fake.reset();
    }

    @Test
    void anAdminSetsTheSparesWithinThePoolsNodesAndTheChangeIsAudited() {
        Setup s = fleet(3);
        String pool = "/api/v1/pools/" + s.pool();

        Api.Response tooMany = api.patch(pool, adminToken(), Map.of("spareNodes", 4));
        assertThat(tooMany.status()).as(tooMany.body()).isEqualTo(422);
        assertThat(tooMany.contentType()).startsWith("application/problem+json");
        assertThat(tooMany.json().get("type").asString()).endsWith("/invalid_spare_nodes");
        assertThat(tooMany.json().get("errors").get(0).get("field").asString()).isEqualTo("spareNodes");
        assertThat(api.patch(pool, adminToken(), Map.of("spareNodes", -1)).status())
                .isEqualTo(400);
        assertThat(api.patch(pool, s.token(), Map.of("spareNodes", 1)).status()).isEqualTo(403);
        assertThat(api.patch(pool, adminToken(), Map.of("spareNodes", 1), "If-Match", "\"spares-7\"")
                        .status())
                .isEqualTo(412);
        assertThat(spares(s)).isEmpty();
        Api.Response created = api.post(
                "/api/v1/pools",
                adminToken(),
                Map.of(
                        "name",
                        s.pool() + "-x",
                        "gpuType",
                        s.gpuType(),
                        "gpusPerNode",
                        8,
                        "region",
                        "eu-test-1",
                        "spareNodes",
                        1));
        assertThat(created.status()).as(created.body()).isEqualTo(422);

        Api.Response read = api.get(pool, adminToken());
        Api.Response changed = api.patch(pool, adminToken(), Map.of("spareNodes", 1), "If-Match", read.header("ETag"));

        assertThat(changed.status()).as(changed.body()).isEqualTo(200);
        assertThat(changed.json().get("spareNodes").asInt()).isEqualTo(1);
        // chosen deterministically: the newest node free from now on
        assertThat(spares(s)).containsExactly(s.nodes().get(2));
        assertThat(api.get("/api/v1/nodes/" + s.nodes().get(2), adminToken())
                        .json()
                        .get("spare")
                        .asBoolean())
                .isTrue();
        assertThat(jdbc.sql(
                                "SELECT count(*) FROM audit_event WHERE action = 'pool.spare-nodes-changed' AND object_id = ?")
                        .param(s.pool())
                        .query(Long.class)
                        .single())
                .isEqualTo(1);

        assertThat(api.patch(pool, adminToken(), Map.of("spareNodes", 0)).status())
                .isEqualTo(200);
        assertThat(spares(s)).isEmpty();
    }

    @Test
    void sparesAreLeftOutOfQuotesBookingsEarliestFitAndTheCalendarAlsoAfterARebuild() {
        Setup s = fleetWithOneSpare(3);
        String spare = s.nodes().get(2);
        Instant start = hour(3);
        Instant end = hour(5);

        assertThat(quote(s, 24, start, end).status()).isNotEqualTo(200);
        Api.Response booked = book(s, 16, start, end, "KUBERNETES");
        assertThat(booked.status()).as(booked.body()).isEqualTo(201);
        assertThat(booked.json().get("nodes").valueStream().map(JsonNode::asString))
                .doesNotContain(spare);
        Api.Response more = book(s, 8, start, end, "KUBERNETES");
        assertThat(more.status()).as(more.body()).isEqualTo(409);
        Api.Response quoted = quote(s, 8, start, end);
        System.out.println("Quote for 8 GPUs beside the spare: " + quoted);
        assertThat(quoted.status() == 200 && quoted.json().path("fits").asBoolean(false))
                .isFalse();

        JsonNode hour = calendarHour(s, start);
        assertThat(hour.get("totalGpus").asInt()).isEqualTo(16);
        assertThat(hour.get("allocatedGpus").asInt()).isEqualTo(16);
        assertThat(hour.get("availableGpus").asInt()).isZero();
        assertThat(api.post("/api/v1/capacity/rebuild?pool=" + s.pool(), adminToken())
                        .status())
                .isEqualTo(200);
        assertThat(calendarHour(s, start)).isEqualTo(hour);

        JsonNode earliest = api.get(
                        "/api/v1/capacity/earliest?pool=" + s.pool() + "&gpus=8&duration=PT1H&after=" + start,
                        adminToken())
                .json();
        System.out.println("Earliest 8 GPUs from " + start + ": " + earliest);
        assertThat(Instant.parse(earliest.get("windows").get(0).get("startsAt").asString()))
                .isAfterOrEqualTo(end);
    }

    @Test
    void aNodeQuarantinedUnderAClusterIsReplacedByTheSpareAndTheSparesAreReplenished() {
        Setup s = fleetWithOneSpare(4);
        String spare = s.nodes().get(3);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 8, start, hour(4), "KUBERNETES");
        runDueAt(start.minus(Duration.ofMinutes(15)));
        String bad = api.get(path(s, id), s.token()).json().get("nodes").get(0).asString();
        assertThat(bad).isNotEqualTo(spare);

        Api.Response reported = api.post(
                "/api/v1/nodes/" + bad + "/events",
                adminToken(),
                Map.of("type", "XID", "xid", 79, "message", "GPU has fallen off the bus"));

        assertThat(reported.status()).as(reported.body()).isEqualTo(202);
        JsonNode cluster = cluster(s, id);
        assertThat(cluster.get("state").asString()).isEqualTo("READY");
        // the node list shows the spare serving, and the bad node as replaced
        assertThat(cluster.get("nodes")
                        .valueStream()
                        .map(n -> n.get("hostname").asString() + " "
                                + n.get("health").asString()))
                .containsExactly(spare + " PASSED", bad + " REPLACED");
        // the spare left the spares, and the newest other node free from now on took its place
        List<String> replenished = spares(s);
        assertThat(replenished).hasSize(1).doesNotContain(spare, bad);
        // the tenant is not charged for the node from the fault until it was replaced
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(jdbc.sql(
                                        "SELECT count(*) FROM node_degraded WHERE reservation_id = ? AND hostname = ? AND NOT upper_inf(during)")
                                .params(UUID.fromString(id), bad)
                                .query(Long.class)
                                .single())
                        .isEqualTo(1));

        assertThat(api.post("/api/v1/nodes/" + bad + "/release", adminToken(), Map.of("reason", "GPU reseated"))
                        .status())
                .isEqualTo(200);
        assertThat(spares(s)).isEqualTo(replenished);
        assertThat(api.patch("/api/v1/pools/" + s.pool(), adminToken(), Map.of("spareNodes", 2))
                        .status())
                .isEqualTo(200);
        assertThat(spares(s)).hasSize(2).doesNotContain(spare);
    }

    @Test
    void twoFailuresAtOnceCompeteForOneSpareOneGetsItTheOtherStaysDegradedSayingWhy() {
        Setup s = fleetWithOneSpare(3);
        String spare = s.nodes().get(2);
        Instant start = hour(3);
        String first = bookAndAwaitSchedule(s, 8, start, hour(4), "KUBERNETES");
        String second = bookAndAwaitSchedule(s, 8, start, hour(4), "KUBERNETES");
        runDueAt(start.minus(Duration.ofMinutes(15)));
        String a = api.get(path(s, first), s.token()).json().get("nodes").get(0).asString();
        String b =
                api.get(path(s, second), s.token()).json().get("nodes").get(0).asString();
        assertThat(List.of(a, b)).doesNotContain(spare);

        CompletableFuture<Api.Response> one = CompletableFuture.supplyAsync(() -> api.post(
                "/api/v1/nodes/" + a + "/events", adminToken(), Map.of("type", "ECC", "uncorrectedErrors", 3)));
        CompletableFuture<Api.Response> two = CompletableFuture.supplyAsync(() -> api.post(
                "/api/v1/nodes/" + b + "/events", adminToken(), Map.of("type", "ECC", "uncorrectedErrors", 3)));
        assertThat(one.join().status()).as(one.join().body()).isEqualTo(202);
        assertThat(two.join().status()).as(two.join().body()).isEqualTo(202);

        assertOneGotTheOnlyReplacement(s, first, second, spare);
        assertThat(spares(s)).isEmpty();
    }

    private Setup fleetWithOneSpare(int nodes) {
        Setup s = fleet(nodes);
        assertThat(api.patch("/api/v1/pools/" + s.pool(), adminToken(), Map.of("spareNodes", 1))
                        .status())
                .isEqualTo(200);
        return s;
    }

    private List<String> spares(Setup s) {
        return jdbc.sql(
                        "SELECT n.hostname FROM node n JOIN pool p ON p.id = n.pool_id WHERE p.name = ? AND n.spare ORDER BY 1")
                .param(s.pool())
                .query(String.class)
                .list();
    }

    private Api.Response quote(Setup s, int gpus, Instant start, Instant end) {
        return api.post(
                "/api/v1/tenants/" + s.tenant() + "/quotes",
                s.token(),
                Map.of(
                        "project",
                        "training",
                        "pool",
                        s.pool(),
                        "gpus",
                        gpus,
                        "startsAt",
                        start.toString(),
                        "endsAt",
                        end.toString(),
                        "cluster",
                        Map.of("orchestrator", "KUBERNETES", "cudaDriver", "550.54")));
    }

    private JsonNode calendarHour(Setup s, Instant hour) {
        return api.get(
                        "/api/v1/capacity?pool=" + s.pool() + "&from=" + hour + "&to=" + hour.plus(Duration.ofHours(1))
                                + "&step=PT1H",
                        adminToken())
                .json()
                .get("buckets")
                .get(0);
    }
}
