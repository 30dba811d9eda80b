package dev.allot.replicas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Two Allot replicas, two operating-system processes, on one fresh PostgreSQL database, as docs/architecture.md
 * promises ("every invariant is enforced by PostgreSQL, every background job safe on N replicas"): bookings raced
 * through both, db-scheduler's tasks run once between them, the live calendar of one shows what was booked on the other,
 * and {@code kill -9} of one under load loses no acknowledged booking while the other takes over its in-flight
 * provisioning. db-scheduler's heartbeat is 1 s and an execution is dead after 4 missed beats (production keeps the
 * defaults, 5 min and 6), so the takeover takes seconds here.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TwoReplicasTests {

    /** A pool whose fake driver answers every call after 2 s: a provisioning step stays in flight for seconds. */
    static final String SLOW_POOL = "slow-pool";

    static final int MAX_GPUS = 24;

    static ScratchDatabase database;

    static JdbcClient db;

    static Replica a;

    static Replica b;

    static ReplicaFleet fleet;

    static String contendedPool;

    static List<ReplicaFleet.Tenant> racers;

    static ReplicaFleet.Tenant builder;

    static String nowPool;

    static final List<String> lifecycleBookings = new ArrayList<>();

    static String feedBooking;

    @BeforeAll
    static void twoReplicasOnOneDatabase() throws Exception {
        database = ScratchDatabase.create("allot_replicas_");
        String url = database.url();
        db = JdbcClient.create(new DriverManagerDataSource(url, database.username(), database.password()));
        Path logs = Path.of("target", "replicas").toAbsolutePath();
        List<String> settings = List.of(
                "--db-scheduler.heartbeat-interval=1s",
                "--db-scheduler.missed-heartbeats-limit=4",
                "--db-scheduler.polling-interval=1s",
                "--allot.billing.meter-every=PT2S",
                "--allot.billing.settle=PT1S",
                "--allot.provisioning.pools." + SLOW_POOL + ".driver=fake",
                "--allot.provisioning.pools." + SLOW_POOL + ".fake.latency=2s",
                "--server.shutdown=immediate");
        long started = System.nanoTime();
        // both at once on the fresh database: the migrations and the first signing key are raced for, too
        // the load balancer's address, the issuer both replicas sign and accept tokens as: here A's own
        int portA = Replica.freePort();
        String publicUrl = "http://127.0.0.1:" + portA;
        a = Replica.start("replica-a", portA, publicUrl, url, database.username(), database.password(), logs, settings);
        b = Replica.start(
                "replica-b",
                Replica.freePort(),
                publicUrl,
                url,
                database.username(),
                database.password(),
                logs,
                settings);
        a.awaitReady(Duration.ofMinutes(5));
        b.awaitReady(Duration.ofMinutes(5));
        System.out.printf(
                "Two replicas: both ready in %.1f s (ports %d and %d, database %s)%n",
                (System.nanoTime() - started) / 1e9, a.port, b.port, database.name());

        fleet = new ReplicaFleet(a.api());
        String contendedType = fleet.gpuType();
        contendedPool = "contended";
        fleet.pool(contendedPool, contendedType, 5);
        // two tenants whose caps together exceed the pool: both node races and quota races
        racers = List.of(fleet.tenant(contendedType, 8, MAX_GPUS), fleet.tenant(contendedType, 8, MAX_GPUS));
        String lifecycleType = fleet.gpuType();
        nowPool = "now-pool";
        fleet.pool(nowPool, lifecycleType, 6);
        fleet.pool(SLOW_POOL, lifecycleType, 6);
        builder = fleet.tenant(lifecycleType, 96, 96);
    }

    @AfterAll
    static void stop() throws Exception {
        for (Replica replica : Stream.of(a, b).filter(r -> r != null).toList()) {
            replica.close();
        }
        if (database != null) {
            database.drop();
        }
    }

    @Test
    @Order(1)
    void aTokenFromOneReplicaIsAcceptedByTheOther() {
        String token = a.api().token(Replica.ADMIN_CLIENT, Replica.ADMIN_SECRET);
        Api.Response me = b.api().get("/api/v1/me", token);
        assertThat(me.status()).as(me.toString()).isEqualTo(200);
        assertThat(me.body()).contains("PLATFORM_ADMIN");
    }

    /**
     * Six one-minute reservations starting at the next minute, booked half through each replica: each is
     * provisioned, torn down and metered by db-scheduler while the other tests run; checked by {@link #eachLifecycleStepAndMeteringHourRanOnce}.
     */
    @Test
    @Order(2)
    void bookingsThatStartNowAreHandedToTheScheduler() {
        Instant start = ReplicaFleet.nextMinute();
        for (int i = 0; i < 6; i++) {
            Replica via = i % 2 == 0 ? a : b;
            Api.Response booked = via.api()
                    .post(
                            builder.reservations(),
                            builder.token(),
                            ReplicaFleet.booking(nowPool, 8, start, start.plus(Duration.ofMinutes(1))));
            assertThat(booked.status()).as(booked.toString()).isEqualTo(201);
            lifecycleBookings.add(booked.json().get("id").asString());
        }
    }

    @Test
    @Order(3)
    void aBookingOnOneReplicaReachesTheOthersBrowserFeed() throws Exception {
        String[] user = fleet.user();
        // signed in on A; the session (in PostgreSQL) opens B's feed as the same browser would after a failover
        HttpClient browser = ReplicaFleet.signIn(a.baseUrl(), user[0], user[1]);
        try (CalendarFeed feed = new CalendarFeed(browser, b.baseUrl())) {
            assertThat(feed.await("resync", Duration.ofSeconds(30)))
                    .as("the feed's first event")
                    .isTrue();
            ReplicaFleet.Tenant tenant = racers.getFirst();
            Instant start = Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(30));
            long booked = System.nanoTime();
            Api.Response response = a.api()
                    .post(
                            tenant.reservations(),
                            tenant.token(),
                            ReplicaFleet.booking(contendedPool, 8, start, start.plus(Duration.ofHours(1))));
            assertThat(response.status()).as(response.toString()).isEqualTo(201);
            feedBooking = response.json().get("id").asString();
            assertThat(feed.await("capacity-" + contendedPool, Duration.ofSeconds(30)))
                    .as("the booking on replica A announced on replica B's feed")
                    .isTrue();
            System.out.printf(
                    "Two replicas: a booking on A reached the calendar feed of B in %d ms%n",
                    (System.nanoTime() - booked) / 1_000_000);
            assertThat(a.api()
                            .post(tenant.reservations() + "/" + feedBooking + "/cancel", tenant.token(), Map.of())
                            .status())
                    .isEqualTo(200);
        }
    }

    @Test
    @Order(4)
    void contentionAcrossBothReplicasBooksNoNodeTwiceAndPassesNoCap() throws Exception {
        BookingLoad load = new BookingLoad(
                racers,
                contendedPool,
                Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(2)));
        long started = System.nanoTime();
        load.run(16, 30, thread -> (thread % 2 == 0 ? a : b).api(), () -> false);
        System.out.printf(
                "Two replicas, contention: %d requests from 16 threads (8 per replica) in %d ms, statuses %s%n",
                16 * 30, (System.nanoTime() - started) / 1_000_000, load.statuses);
        assertThat(load.unexpected).isEmpty();
        assertThat(load.unanswered).isEmpty();
        // the run raced: node conflicts and quota refusals both happened
        assertThat(load.count(201)).isGreaterThan(20);
        assertThat(load.count(409)).isPositive();
        assertThat(load.count(422)).isPositive();
        load.assertStoredIn(db);
        assertNoCapPassed();
        List<String> slugs = racers.stream().map(ReplicaFleet.Tenant::slug).toList();
        Set<String> stored =
                Set.copyOf(db.sql("SELECT id::text FROM reservation WHERE tenant_slug = ANY(?) AND id::text <> ?")
                        .params(slugs.toArray(String[]::new), String.valueOf(feedBooking))
                        .query(String.class)
                        .list());
        assertThat(stored).as("every acknowledged booking and nothing else").isEqualTo(load.booked.keySet());
    }

    @Test
    @Order(5)
    void eachLifecycleStepAndMeteringHourRanOnce() throws Exception {
        String[] ids = lifecycleBookings.toArray(String[]::new);
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (true) {
            int done = db.sql("""
					SELECT count(*) FROM cluster c JOIN reservation r ON r.id = c.reservation_id
					WHERE c.reservation_id::text = ANY(?) AND c.state = 'DELETED'
					  AND (SELECT count(*) FROM metered_period m WHERE m.reservation_id = r.id)
					    = (SELECT count(*) FROM generate_series(date_trunc('hour', r.starts_at),
					                                            r.ends_at - interval '1 microsecond', interval '1 hour'))
					""").param(ids).query(Integer.class).single();
            if (done == ids.length) {
                break;
            }
            assertThat(System.nanoTime())
                    .as("all six clusters built, torn down and metered within 5 minutes; now " + done + " are; "
                            + timeline(ids))
                    .isLessThan(deadline);
            Thread.sleep(1000);
        }
        // 6 reservations x (provision STARTED, SUCCEEDED; teardown STARTED, SUCCEEDED), each once, nothing retried
        List<Map<String, Object>> steps = db.sql("""
				SELECT reservation_id::text AS id, step, outcome, count(*) AS n FROM cluster_event
				WHERE reservation_id::text = ANY(?) AND step IN ('provision', 'teardown')
				GROUP BY 1, 2, 3""").param(ids).query().listOfRows();
        for (String id : ids) {
            for (String step : List.of("provision", "teardown")) {
                for (String outcome : List.of("STARTED", "SUCCEEDED")) {
                    assertThat(steps)
                            .as(id + " " + step + " " + outcome + " once; " + timeline(ids))
                            .anyMatch(row -> row.get("id").equals(id)
                                    && row.get("step").equals(step)
                                    && row.get("outcome").equals(outcome)
                                    && ((Number) row.get("n")).intValue() == 1);
                }
            }
        }
        assertThat(steps)
                .as("no step retried, failed or skipped")
                .allMatch(row -> Set.of("STARTED", "SUCCEEDED", "PROGRESSED").contains((String) row.get("outcome")));
        // each metered hour posted once: one ledger transaction per (reservation, hour), for exactly the GPU-seconds
        // billed (8 GPUs from the cluster's readiness, or the start, to the end)
        List<Map<String, Object>> metered = db.sql("""
				SELECT m.reservation_id::text AS id, m.hour, extract(epoch FROM upper(m.billed) - lower(m.billed)) AS seconds,
				       (SELECT count(*) FROM ledger_transaction t WHERE t.posting_key = 'usage:' || m.reservation_id || ':'
				            || to_char(m.hour AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')) AS postings
				FROM metered_period m WHERE m.reservation_id::text = ANY(?)""").param(ids).query().listOfRows();
        System.out.printf(
                "Two replicas, scheduler: %d lifecycle steps and %d metered hours for %d reservations%n",
                steps.stream()
                        .mapToInt(row -> ((Number) row.get("n")).intValue())
                        .sum(),
                metered.size(),
                ids.length);
        assertThat(metered).allMatch(row -> ((Number) row.get("postings")).intValue() == 1);
        assertThat(db.sql("SELECT count(*) FROM ledger_transaction WHERE kind = 'USAGE' AND posting_key LIKE 'usage:%' "
                                + "AND split_part(posting_key, ':', 2) = ANY(?)")
                        .param(ids)
                        .query(Integer.class)
                        .single())
                .as("usage postings")
                .isEqualTo(metered.stream()
                        .filter(row -> ((Number) row.get("seconds")).doubleValue() > 0)
                        .count());
    }

    @Test
    @Order(6)
    void killingOneReplicaUnderLoadLosesNoAcknowledgedBookingAndTheOtherTakesOverItsTasks() throws Exception {
        BookingLoad load = new BookingLoad(
                racers,
                contendedPool,
                Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(20)));
        AtomicBoolean stop = new AtomicBoolean();
        Replica[] survivor = new Replica[1];
        Thread clients = Thread.ofPlatform().start(() -> {
            try {
                // a load balancer: each thread on its replica, on the survivor once one is dead
                load.run(
                        16,
                        Integer.MAX_VALUE,
                        thread -> (survivor[0] != null ? survivor[0] : thread % 2 == 0 ? a : b).api(),
                        stop::get);
            } catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        });
        // clusters whose provisioning takes seconds per driver call: steps in flight when a replica dies
        Instant start = ReplicaFleet.nextMinute();
        List<String> slow = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Api.Response booked = (i % 2 == 0 ? a : b)
                    .api()
                    .post(
                            builder.reservations(),
                            builder.token(),
                            ReplicaFleet.booking(SLOW_POOL, 8, start, start.plus(Duration.ofMinutes(30))));
            assertThat(booked.status()).as(booked.toString()).isEqualTo(201);
            slow.add(booked.json().get("id").asString());
        }
        // wait until a replica holds a provisioning step of one of them, then kill that replica
        List<Map<String, Object>> inFlight = List.of();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (inFlight.isEmpty()) {
            assertThat(System.nanoTime())
                    .as("a provisioning step in flight within 60 s")
                    .isLessThan(deadline);
            Thread.sleep(200);
            inFlight = db.sql("""
					SELECT task_instance, picked_by FROM scheduled_tasks
					WHERE task_name = 'cluster-provision' AND picked AND task_instance = ANY(?)""").param(slow.toArray(String[]::new)).query().listOfRows();
        }
        Replica victim = inFlight.getFirst().get("picked_by").equals(a.name) ? a : b;
        Replica other = victim == a ? b : a;
        List<String> orphaned = inFlight.stream()
                .filter(row -> row.get("picked_by").equals(victim.name))
                .map(row -> (String) row.get("task_instance"))
                .toList();
        Thread.sleep(1000);
        Instant killedAt = Instant.now();
        victim.kill();
        survivor[0] = other;
        System.out.printf("Two replicas: kill -9 %s while it provisions %s%n", victim.name, orphaned);

        // the survivor revives the dead replica's executions and finishes every cluster
        deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (db.sql("SELECT count(*) FROM cluster WHERE reservation_id::text = ANY(?) AND state = 'READY'")
                        .param(slow.toArray(String[]::new))
                        .query(Integer.class)
                        .single()
                < slow.size()) {
            assertThat(System.nanoTime())
                    .as("every slow cluster READY within 3 minutes of the kill; "
                            + timeline(slow.toArray(String[]::new)))
                    .isLessThan(deadline);
            Thread.sleep(500);
        }
        Thread.sleep(2000);
        stop.set(true);
        clients.join();
        Instant resumed = db.sql("""
				SELECT min(at) FROM cluster_event WHERE reservation_id::text = ANY(?) AND step = 'provision'
				  AND outcome = 'STARTED' AND at > ?""")
                .params(orphaned.toArray(String[]::new), Timestamp.from(killedAt))
                .query(Timestamp.class)
                .single()
                .toInstant();
        System.out.printf(
                "Two replicas, kill -9: %s resumed the dead replica's provisioning %d ms after the kill; "
                        + "load %s, %d requests unanswered (to the dead replica), %d bookings acknowledged%n",
                other.name,
                Duration.between(killedAt, resumed).toMillis(),
                load.statuses,
                load.unanswered.size(),
                load.booked.size());
        assertThat(db.sql("SELECT count(*) FROM scheduled_tasks WHERE picked_by = ?")
                        .param(victim.name)
                        .query(Integer.class)
                        .single())
                .as("executions still held by the dead replica")
                .isZero();
        assertThat(load.unexpected).isEmpty();
        assertThat(load.booked).isNotEmpty();
        load.assertStoredIn(db);
        assertNoCapPassed();
    }

    /** No tenant ever above its cap in the contended pool. */
    static void assertNoCapPassed() {
        Integer peak = db.sql("""
				WITH held AS (
				    SELECT r.tenant_slug, a.during FROM allocation a JOIN reservation r ON r.id = a.reservation_id
				    WHERE a.active AND r.pool_name = ?)
				, instants AS (SELECT DISTINCT tenant_slug, lower(during) AS t FROM held)
				SELECT coalesce(max(gpus), 0) FROM (
				    SELECT i.tenant_slug, i.t, count(*) * 8 AS gpus FROM instants i
				    JOIN held h ON h.tenant_slug = i.tenant_slug AND h.during @> i.t
				    GROUP BY 1, 2) usage""").param(contendedPool).query(Integer.class).single();
        assertThat(peak)
                .as("a tenant's peak GPUs (its maxGpus is " + MAX_GPUS + ")")
                .isLessThanOrEqualTo(MAX_GPUS);
    }

    private static String timeline(String[] ids) {
        return db.sql("""
				SELECT string_agg(reservation_id || ' ' || step || ' ' || outcome || ' ' || state, '; ' ORDER BY id)
				FROM cluster_event WHERE reservation_id::text = ANY(?)""").param(ids).query(String.class).optional().orElse("(no events)");
    }

    /** The same server, another database: {@code jdbc:postgresql://host:port/name?params}. */
    static String withDatabase(String url, String database) {
        return url.replaceFirst("^(jdbc:postgresql://[^/]+/)[^?]*", "$1" + database);
    }
}
