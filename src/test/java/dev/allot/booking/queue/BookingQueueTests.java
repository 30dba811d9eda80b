package dev.allot.booking.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.booking.BookingFixture;
import dev.allot.shared.security.PlatformRole;
import dev.allot.support.Api;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * The booking queue (issue 31, part 5), on real PostgreSQL: a booking with {@code whenUnavailable: QUEUE} that does
 * not fit answers 202 {@code QUEUED} with its place, holds nothing, and is booked (the same reservation, CONFIRMED)
 * when capacity frees within its start window, or expires when the window passes.
 */
class BookingQueueTests extends BookingFixture {

    @Autowired
    BookingQueue queue;

    static Map<String, Object> queued(Map<String, Object> body, Instant earliest, Instant latest) {
        body.put("whenUnavailable", "QUEUE");
        body.put("startWindow", Map.of("earliest", earliest.toString(), "latest", latest.toString()));
        return body;
    }

    /** A pool of {@code nodes} nodes shared by two tenants with no guarantee, each allowed every GPU on demand. */
    private Setup[] twoOnDemandTenants(int nodes) {
        Setup a = setup(nodes, 0, nodes * 8, true);
        Setup b = tenantOn(a.gpuType(), a.pool(), a.nodes(), 0, nodes * 8, true);
        return new Setup[] {a, b};
    }

    @Test
    void aBookingThatDoesNotFitIsQueuedHoldingNothingAndBookedWhenACancelFreesItsNode() {
        Setup[] t = twoOnDemandTenants(1);
        Setup a = t[0];
        Setup b = t[1];
        jdbc.sql("""
				INSERT INTO tenant_webhook (id, tenant_id, url, secret, events, created_at)
				SELECT gen_random_uuid(), id, 'https://hooks.example.com/allot', 'unused-in-this-test',
				       ARRAY['QUEUED', 'DEQUEUED', 'CONFIRMED'], now()
				FROM tenant WHERE slug = ?""").param(b.tenant()).update();
        String held = createdId(book(a, 8, hour(5), hour(7)));

        Api.Response answer = book(b, queued(body(b, 8, hour(5), hour(7)), hour(5), hour(6)));
        assertThat(answer.status()).as(answer.toString()).isEqualTo(202);
        assertThat(answer.json().get("status").asString()).isEqualTo("QUEUED");
        assertThat(answer.json().get("queuePosition").asInt()).isEqualTo(1);
        assertThat(answer.json().get("nodes").size()).isZero();
        assertThat(answer.header("Location")).endsWith(answer.json().get("id").asString());
        String id = answer.json().get("id").asString();
        assertThat(jdbc.sql("SELECT count(*) FROM allocation WHERE reservation_id = ?::uuid")
                        .param(id)
                        .query(Long.class)
                        .single())
                .isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM quota_usage WHERE reservation_id = ?::uuid")
                        .param(id)
                        .query(Long.class)
                        .single())
                .isZero();
        // its tenant sees it, with its place, in its list; it cannot be extended while it holds nothing
        JsonNode listed = api.get("/api/v1/tenants/" + b.tenant() + "/reservations?status=QUEUED", b.token())
                .json()
                .get("items");
        assertThat(listed.size()).isEqualTo(1);
        assertThat(listed.get(0).get("queuePosition").asInt()).isEqualTo(1);
        Api.Response extend = api.patch(
                path(b, id), b.token(), Map.of("endsAt", hour(8).toString()), "If-Match", answer.header("ETag"));
        assertThat(extend.status()).as(extend.toString()).isEqualTo(409);
        assertThat(extend.json().get("code").asString()).isEqualTo("reservation_queued");

        assertThat(api.post(path(a, held) + "/cancel", a.token()).status()).isEqualTo(200);
        // the cancel wakes the drain: the same reservation, booked on the freed node
        await().atMost(Duration.ofSeconds(20))
                .until(() -> "CONFIRMED"
                        .equals(api.get(path(b, id), b.token())
                                .json()
                                .get("status")
                                .asString()));
        Api.Response booked = api.get(path(b, id), b.token());
        assertThat(booked.json().get("nodes").size()).isEqualTo(1);
        assertThat(booked.json().get("startsAt").asString()).isEqualTo(hour(5).toString());
        assertThat(booked.json().get("queuePosition").isNull()).isTrue();
        assertThat(jdbc.sql("SELECT count(*) FROM audit_event WHERE object_id = ? AND action = 'reservation.dequeued'")
                        .param(id)
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> delivered(id, "QUEUED") == 1
                        && delivered(id, "DEQUEUED") == 1
                        && delivered(id, "CONFIRMED") == 1);
    }

    @Test
    void aQueueableBookingThatFitsLaterInItsStartWindowIsBookedThereAtOnce() {
        Setup[] t = twoOnDemandTenants(1);
        createdId(book(t[0], 8, hour(5), hour(7)));
        Api.Response answer = book(t[1], queued(body(t[1], 8, hour(5), hour(6)), hour(5), hour(9)));
        assertThat(answer.status()).as(answer.toString()).isEqualTo(201);
        assertThat(answer.json().get("status").asString()).isEqualTo("CONFIRMED");
        assertThat(answer.json().get("startsAt").asString()).isEqualTo(hour(7).toString());
        assertThat(answer.json().get("endsAt").asString()).isEqualTo(hour(8).toString());
    }

    @Test
    void aQueuedBookingWhoseLatestStartPassesExpiresAndACancelledOneIsNeverBooked() {
        Setup[] t = twoOnDemandTenants(1);
        String held = createdId(book(t[0], 8, hour(5), hour(7)));
        String expiring = queuedId(book(t[1], queued(body(t[1], 8, hour(5), hour(7)), hour(5), hour(5))));
        String cancelled = queuedId(book(t[1], queued(body(t[1], 8, hour(5), hour(7)), hour(5), hour(6))));
        assertThat(api.get(path(t[1], cancelled), t[1].token())
                        .json()
                        .get("queuePosition")
                        .asInt())
                .isEqualTo(2);

        jdbc.sql("UPDATE reservation SET queue_earliest = now() - interval '2 hours', queue_latest = now() - "
                        + "interval '1 minute' WHERE id = ?::uuid")
                .param(expiring)
                .update();
        assertThat(queue.expireDue()).isGreaterThanOrEqualTo(1);
        assertThat(api.get(path(t[1], expiring), t[1].token())
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("EXPIRED");
        assertThat(api.get(path(t[1], cancelled), t[1].token())
                        .json()
                        .get("queuePosition")
                        .asInt())
                .isEqualTo(1);

        Api.Response cancel = api.post(path(t[1], cancelled) + "/cancel", t[1].token());
        assertThat(cancel.status()).as(cancel.toString()).isEqualTo(200);
        assertThat(cancel.json().get("status").asString()).isEqualTo("CANCELLED");
        assertThat(api.post(path(t[0], held) + "/cancel", t[0].token()).status())
                .isEqualTo(200);
        queue.drain();
        assertThat(api.get(path(t[1], cancelled), t[1].token())
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("CANCELLED");
        assertThat(api.get(path(t[1], expiring), t[1].token())
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("EXPIRED");
        assertThat(jdbc.sql("SELECT count(*) FROM allocation a JOIN reservation r ON r.id = a.reservation_id "
                                + "WHERE r.tenant_slug = ?")
                        .param(t[1].tenant())
                        .query(Long.class)
                        .single())
                .isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM audit_event WHERE object_id = ? AND action = 'reservation.expired'")
                        .param(expiring)
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
    }

    @Test
    void aQueueRequestThatCannotBeQueuedIsRefusedAndWritesNothing() {
        Setup s = setup(1, 8, 16, false);
        Map<String, Object> noWindow = body(s, 8, hour(5), hour(6));
        noWindow.put("whenUnavailable", "QUEUE");
        Api.Response refused = book(s, noWindow);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body()).contains("startWindow");
        Map<String, Object> windowAlone = body(s, 8, hour(5), hour(6));
        windowAlone.put("startWindow", Map.of("earliest", hour(5).toString(), "latest", hour(6).toString()));
        assertThat(book(s, windowAlone).status()).isEqualTo(400);
        assertThat(book(s, queued(body(s, 8, hour(5), hour(6)), hour(6), hour(9)))
                        .body())
                .contains("startsAt");
        assertThat(book(s, queued(body(s, 8, hour(5), hour(6)), hour(5), hour(4)))
                        .status())
                .isEqualTo(400);
        assertThat(book(s, queued(body(s, 8, hour(5), hour(6)), hour(5), Instant.parse("2026-01-01T00:00:30Z")))
                        .status())
                .isEqualTo(400);
        assertThat(writesOf(s.tenant())).isZero();
    }

    @Test
    void thePoolQueueIsOrderedByPriorityThenTimeWithAFairShareAndShownToPlatformAdminsOnly() {
        Setup a = setup(1, 0, 64, true);
        Setup b = tenantOn(a.gpuType(), a.pool(), a.nodes(), 0, 64, true);
        createdId(book(a, 8, hour(5), hour(7)));
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(queuedId(book(a, queued(body(a, 8, hour(5), hour(7)), hour(5), hour(6)))));
        }
        ids.add(queuedId(book(b, queued(body(b, 8, hour(5), hour(7)), hour(5), hour(6)))));

        JsonNode items = api.get("/api/v1/pools/" + a.pool() + "/queue", adminToken())
                .json()
                .get("items");
        // a's three came first, but while b waits a holds no more than half of any head of the queue
        assertThat(items.valueStream().map(e -> e.get("id").asString()).toList())
                .containsExactly(ids.get(0), ids.get(3), ids.get(1), ids.get(2));
        assertThat(items.get(1).get("tenant").asString()).isEqualTo(b.tenant());
        assertThat(items.get(1).get("duration").asString()).isEqualTo("PT2H");
        assertThat(api.get("/api/v1/pools/" + a.pool() + "/queue", a.token()).status())
                .isEqualTo(403);
        assertThat(api.get("/api/v1/pools/" + a.pool() + "/queue", tenantToken(a.tenant(), "TENANT_ADMIN"))
                        .status())
                .isEqualTo(403);
        assertThat(api.get("/api/v1/pools/" + a.pool() + "/queue", userToken(newUser(PlatformRole.AUDITOR)))
                        .json()
                        .get("items")
                        .size())
                .isEqualTo(4);
        // another tenant neither sees b's queued booking nor can cancel it
        assertThat(api.get(path(b, ids.get(3)), a.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/tenants/" + b.tenant() + "/reservations/" + ids.get(3), a.token())
                        .status())
                .isIn(403, 404);
        assertThat(api.post("/api/v1/tenants/" + b.tenant() + "/reservations/" + ids.get(3) + "/cancel", a.token())
                        .status())
                .isIn(403, 404);
        assertThat(api.get(path(b, ids.get(3)), b.token())
                        .json()
                        .get("queuePosition")
                        .asInt())
                .isEqualTo(2);

        // a higher priority class goes first
        prioritize(b, 0, 64, "PRODUCTION_INFERENCE");
        assertThat(api.get("/api/v1/pools/" + a.pool() + "/queue", adminToken())
                        .json()
                        .get("items")
                        .get(0)
                        .get("id")
                        .asString())
                .isEqualTo(ids.get(3));
    }

    @Test
    void fairOrderKeepsAnyTenantToHalfOfEveryHeadWhileOthersWait() {
        assertThat(QueueOrder.fairOrder(List.of("a1", "a2", "a3", "b1", "c1", "a4"), e -> e.charAt(0)))
                .containsExactly("a1", "b1", "a2", "c1", "a3", "a4");
        assertThat(QueueOrder.fairOrder(List.of("a1", "a2"), e -> e.charAt(0))).containsExactly("a1", "a2");
        assertThat(QueueOrder.fairOrder(List.<String>of(), e -> e.charAt(0))).isEmpty();
    }

    /** One that found no room holds back those behind it that need no less, of its own team only. */
    @Test
    void aPassHoldsBackWhatNeedsNoLessThanOneAheadThatFoundNoRoom() {
        UUID team = UUID.randomUUID();
        Instant now = hour(0);
        Instant day = now.plus(Duration.ofDays(1));
        QueueOrder.Queued ahead = queuedOf(team, 8, 2, now, day, false);
        assertThat(BookingQueue.needsNoLessThan(queuedOf(team, 8, 2, now, day, false), ahead, now))
                .isTrue();
        assertThat(BookingQueue.needsNoLessThan(queuedOf(team, 16, 3, now.plusSeconds(3600), day, false), ahead, now))
                .isTrue();
        // smaller, shorter, a start ahead may not take: it may fit where ahead does not (backfilling)
        assertThat(BookingQueue.needsNoLessThan(queuedOf(team, 4, 2, now, day, false), ahead, now))
                .isFalse();
        assertThat(BookingQueue.needsNoLessThan(queuedOf(team, 8, 1, now, day, false), ahead, now))
                .isFalse();
        assertThat(BookingQueue.needsNoLessThan(queuedOf(team, 8, 2, now, day.plusSeconds(3600), false), ahead, now))
                .isFalse();
        // another team's may fit by its guarantee; one that may reclaim behind one that may not, likewise
        assertThat(BookingQueue.needsNoLessThan(queuedOf(UUID.randomUUID(), 8, 2, now, day, false), ahead, now))
                .isFalse();
        assertThat(BookingQueue.needsNoLessThan(
                        queuedOf(team, 8, 2, now, day, false), queuedOf(team, 8, 2, now, day, true), now))
                .isFalse();
    }

    private static QueueOrder.Queued queuedOf(
            UUID team, int gpus, int hours, Instant earliest, Instant latest, boolean preemptible) {
        return new QueueOrder.Queued(
                UUID.randomUUID(),
                team,
                "team",
                "main",
                gpus,
                Duration.ofHours(hours),
                earliest,
                latest,
                earliest,
                preemptible);
    }

    @Test
    void eightConcurrentFreesDrainTheQueueWithoutDoubleBooking() throws Exception {
        Setup[] t = twoOnDemandTenants(4);
        List<String> held = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            held.add(createdId(book(t[0], 8, hour(5), hour(7))));
        }
        List<String> waiting = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            waiting.add(queuedId(book(t[1], queued(body(t[1], 8, hour(5), hour(7)), hour(5), hour(6)))));
        }

        List<Callable<Object>> frees = new ArrayList<>();
        for (String id : held) {
            frees.add(() -> api.post(path(t[0], id) + "/cancel", t[0].token()).status());
            frees.add(() -> queue.drain());
        }
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            for (Future<Object> done : pool.invokeAll(frees)) {
                done.get();
            }
        }
        queue.drain();
        List<String> statuses = waiting.stream()
                .map(id -> api.get(path(t[1], id), t[1].token())
                        .json()
                        .get("status")
                        .asString())
                .toList();
        // four nodes freed: the first four in the queue booked, once each; the other two keep their places
        assertThat(statuses).containsExactly("CONFIRMED", "CONFIRMED", "CONFIRMED", "CONFIRMED", "QUEUED", "QUEUED");
        assertThat(jdbc.sql("""
				SELECT count(DISTINCT a.node_id) FROM allocation a JOIN reservation r ON r.id = a.reservation_id
				WHERE r.tenant_slug = ?""").param(t[1].tenant()).query(Long.class).single())
                .isEqualTo(4);
        assertThat(jdbc.sql("""
				SELECT count(*) FROM audit_event WHERE action = 'reservation.dequeued' AND tenant_slug = ?""").param(t[1].tenant()).query(Long.class).single())
                .isEqualTo(4);
        assertThat(api.get(path(t[1], waiting.get(4)), t[1].token())
                        .json()
                        .get("queuePosition")
                        .asInt())
                .isEqualTo(1);
    }

    @Test
    void theQuotaStandingExplainsTheApprovalRuleProjectCapsAndQueuePlaces() {
        Setup[] t = twoOnDemandTenants(1);
        Setup b = t[1];
        Map<String, Object> policy = policy(b.gpuType(), 0, 8, true);
        policy.put("approval", Map.of("aboveGpuHours", 100));
        setQuota(b.tenant(), policy);
        assertThat(api.put(
                                "/api/v1/tenants/" + b.tenant() + "/projects/training/quota",
                                adminToken(),
                                Map.of(
                                        "policies",
                                        List.of(Map.of("gpuType", b.gpuType(), "maxGpus", 8, "monthlyBudget", 5000))))
                        .status())
                .isEqualTo(200);
        createdId(book(b, 8, hour(3), hour(4)));
        createdId(book(t[0], 8, hour(5), hour(7)));
        String waiting = queuedId(book(b, queued(body(b, 8, hour(5), hour(7)), hour(5), hour(6))));

        JsonNode standing = api.get(
                        "/api/v1/tenants/" + b.tenant() + "/quota/standing?gpuType=" + b.gpuType(), b.token())
                .json();
        assertThat(standing.get("approval").get("aboveGpuHours").asInt()).isEqualTo(100);
        JsonNode project = standing.get("projects").get(0);
        assertThat(project.get("project").asString()).isEqualTo("training");
        assertThat(project.get("maxGpus").asInt()).isEqualTo(8);
        assertThat(project.get("heldAtMost").asInt()).isEqualTo(8);
        JsonNode queuedHere = standing.get("queued").get(0);
        assertThat(queuedHere.get("id").asString()).isEqualTo(waiting);
        assertThat(queuedHere.get("position").asInt()).isEqualTo(1);
        assertThat(queuedHere.get("pool").asString()).isEqualTo(b.pool());
        // the other tenant's standing names none of b's queue
        assertThat(api.get("/api/v1/tenants/" + t[0].tenant() + "/quota/standing?gpuType=" + b.gpuType(), t[0].token())
                        .json()
                        .get("queued")
                        .size())
                .isZero();
    }

    private static String queuedId(Api.Response answer) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(202);
        return answer.json().get("id").asString();
    }

    private long delivered(String reservation, String event) {
        return jdbc.sql("SELECT count(*) FROM tenant_webhook_delivery WHERE event = ? AND reservation_id = ?::uuid")
                .params(event, reservation)
                .query(Long.class)
                .single();
    }
}
