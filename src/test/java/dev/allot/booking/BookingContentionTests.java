package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Many clients of two tenants book, cancel and extend overlapping windows on a small pool at once; a booking within
 * one tenant's guarantee reclaims nodes from the other's borrowed (preemptible) reservations. Then SQL checks the
 * invariants over everything that was committed (a preempted reservation holds nothing and counts no usage). The pool is small and the windows dense, so races
 * for the same nodes and the same quota happen on every run (asserted), not by luck.
 */
class BookingContentionTests extends BookingFixture {

    private static final int THREADS = 12;

    private static final int OPERATIONS_PER_THREAD = 40;

    private static final int MAX_GPUS = 24;

    @Test
    void noNodeIsHeldTwiceAndNoTenantPassesItsCapUnderContention() throws Exception {
        // Two tenants whose caps together exceed the pool: both node races and quota races.
        Setup first = setup(5, 8, MAX_GPUS, false);
        List<Setup> tenants =
                List.of(first, tenantOn(first.gpuType(), first.pool(), first.nodes(), 8, MAX_GPUS, false));
        Instant base = hour(2);
        Map<String, Setup> booked = new ConcurrentHashMap<>();
        Set<String> cancelled = ConcurrentHashMap.newKeySet();
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();
        AtomicInteger extended = new AtomicInteger();

        List<Runnable> clients = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Setup tenant = tenants.get(t % tenants.size());
            clients.add(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int op = 0; op < OPERATIONS_PER_THREAD; op++) {
                    List<String> mine = booked.entrySet().stream()
                            .filter(e -> e.getValue() == tenant)
                            .map(Map.Entry::getKey)
                            .toList();
                    int dice = random.nextInt(10);
                    Api.Response response;
                    if (dice < 6 || mine.isEmpty()) {
                        Instant start = base.plus(Duration.ofMinutes(random.nextInt(12 * 60)));
                        Instant end = start.plus(Duration.ofMinutes(30 + random.nextInt(4 * 60)));
                        response = book(tenant, 8 * (1 + random.nextInt(2)), start, end);
                        if (response.status() == 201) {
                            booked.put(response.json().get("id").asString(), tenant);
                        }
                    } else {
                        String id = mine.get(random.nextInt(mine.size()));
                        if (dice < 8) {
                            response = api.post(path(tenant, id) + "/cancel", tenant.token(), Map.of());
                            if (response.status() == 200) {
                                cancelled.add(id);
                            }
                        } else {
                            Api.Response current = api.get(path(tenant, id), tenant.token());
                            Instant end =
                                    Instant.parse(current.json().get("endsAt").asString());
                            response = api.patch(
                                    path(tenant, id),
                                    tenant.token(),
                                    Map.of(
                                            "endsAt",
                                            end.plus(Duration.ofMinutes(15 + random.nextInt(120)))
                                                    .toString()),
                                    "If-Match",
                                    current.header("ETag"));
                            if (response.status() == 200) {
                                extended.incrementAndGet();
                            }
                        }
                    }
                    statuses.computeIfAbsent(response.status(), k -> new AtomicInteger())
                            .incrementAndGet();
                    if (response.status() >= 500 || response.status() == 400) {
                        unexpected.add(response.toString());
                    }
                }
            });
        }
        long started = System.nanoTime();
        try (ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
            List<Future<?>> running =
                    clients.stream().<Future<?>>map(pool::submit).toList();
            for (Future<?> client : running) {
                client.get();
            }
        }

        long preempted = jdbc.sql("SELECT count(*) FROM reservation WHERE tenant_slug = ANY(?) "
                        + "AND lifecycle_status = 'PREEMPTED'")
                .param(tenants.stream().map(Setup::tenant).toArray(String[]::new))
                .query(Long.class)
                .single();
        System.out.printf(
                "Contention: %d requests in %d ms, statuses %s, %d cancelled, %d extended, %d preempted "
                        + "(load average %.1f)%n",
                THREADS * OPERATIONS_PER_THREAD,
                (System.nanoTime() - started) / 1_000_000,
                statuses,
                cancelled.size(),
                extended.get(),
                preempted,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        assertThat(unexpected).isEmpty();
        // The run must have raced: conflicts on nodes, refusals by quota, and successful changes of each kind.
        assertThat(statuses.get(201).get()).isGreaterThan(20);
        assertThat(statuses.getOrDefault(409, new AtomicInteger()).get()).isPositive();
        assertThat(statuses.getOrDefault(422, new AtomicInteger()).get()).isPositive();
        assertThat(cancelled).isNotEmpty();
        assertThat(extended.get()).isPositive();

        String pool = first.pool();
        assertThat(jdbc.sql("""
				SELECT count(*) FROM allocation a JOIN allocation b
				  ON a.node_id = b.node_id AND a.id < b.id AND a.active AND b.active AND a.during && b.during
				WHERE a.pool_id = (SELECT id FROM pool WHERE name = ?)""").param(pool).query(Integer.class).single())
                .as("node-instants held twice")
                .isZero();

        // The tenant's peak usage is reached at the start of one of its allocations.
        Integer peak = jdbc.sql("""
				WITH held AS (
				    SELECT r.tenant_slug, a.during FROM allocation a JOIN reservation r ON r.id = a.reservation_id
				    WHERE a.active AND r.pool_name = ?)
				, instants AS (SELECT DISTINCT tenant_slug, lower(during) AS t FROM held)
				SELECT max(gpus) FROM (
				    SELECT i.tenant_slug, i.t, count(*) * 8 AS gpus FROM instants i
				    JOIN held h ON h.tenant_slug = i.tenant_slug AND h.during @> i.t
				    GROUP BY 1, 2) usage""").param(pool).query(Integer.class).single();
        assertThat(peak).as("a tenant's peak GPUs").isLessThanOrEqualTo(MAX_GPUS);

        // Every 201 has its allocations over exactly its window; nothing else was written.
        List<String> tenantSlugs = tenants.stream().map(Setup::tenant).toList();
        assertThat(jdbc.sql("SELECT id::text FROM reservation WHERE tenant_slug = ANY(?)")
                        .param(tenantSlugs.toArray(String[]::new))
                        .query(String.class)
                        .set())
                .isEqualTo(booked.keySet());
        assertThat(jdbc.sql("""
				SELECT count(*) FROM reservation r WHERE r.tenant_slug = ANY(?) AND r.cancelled_at IS NULL
				  AND r.lifecycle_status IS DISTINCT FROM 'PREEMPTED'
				  AND (SELECT count(*) FROM allocation a WHERE a.reservation_id = r.id AND a.active
				       AND a.during = tstzrange(r.starts_at, r.ends_at, '[)')) <> r.gpus / 8""")
                        .param(tenantSlugs.toArray(String[]::new))
                        .query(Integer.class)
                        .single())
                .as("reservations without exactly their allocations")
                .isZero();
        assertThat(jdbc.sql("""
				SELECT count(*) FROM reservation r WHERE r.tenant_slug = ANY(?)
				  AND (SELECT coalesce(sum(upper(u.during) - lower(u.during)), interval '0')
				       FROM quota_usage u WHERE u.reservation_id = r.id)
				   <> CASE WHEN r.cancelled_at IS NULL AND r.lifecycle_status IS DISTINCT FROM 'PREEMPTED'
				           THEN r.ends_at - r.starts_at ELSE interval '0' END""")
                        .param(tenantSlugs.toArray(String[]::new))
                        .query(Integer.class)
                        .single())
                .as("reservations whose quota usage is not their window")
                .isZero();

        // The free gaps are still the exact complement of the live allocations, in as few pieces as possible.
        assertThat(jdbc.sql("""
				SELECT count(*) FROM (
				    SELECT node_id, range_agg(d) AS covered FROM (
				        SELECT node_id, during AS d FROM free_gap
				        UNION ALL SELECT node_id, during FROM allocation WHERE active) pieces
				    GROUP BY node_id) n
				JOIN node ON node.id = n.node_id JOIN pool p ON p.id = node.pool_id
				WHERE p.name = ? AND n.covered <> '{(,)}'::tstzmultirange""").param(pool).query(Integer.class).single())
                .as("nodes whose gaps and allocations do not tile time")
                .isZero();
        assertThat(jdbc.sql("""
				SELECT count(*) FROM free_gap g JOIN free_gap h ON g.node_id = h.node_id AND g.id < h.id
				  AND (g.during -|- h.during OR g.during && h.during)
				JOIN node ON node.id = g.node_id JOIN pool p ON p.id = node.pool_id WHERE p.name = ?""").param(pool).query(Integer.class).single())
                .as("gaps left unmerged")
                .isZero();

        // And the calendar still equals the allocations.
        assertThat(jdbc.sql("""
				SELECT count(*) FROM generate_series(?::timestamptz, ?::timestamptz, interval '1 hour') h
				WHERE (SELECT coalesce(sum(allocated_nodes), 0) FROM pool_hour ph JOIN pool p ON p.id = ph.pool_id
				       WHERE p.name = ? AND ph.hour = h)
				   <> (SELECT count(DISTINCT a.node_id) FROM allocation a JOIN pool p ON p.id = a.pool_id
				       WHERE p.name = ? AND a.active AND a.during && tstzrange(h, h + interval '1 hour', '[)'))""")
                        .params(base.toString(), base.plus(Duration.ofHours(24)).toString(), pool, pool)
                        .query(Integer.class)
                        .single())
                .as("hours where the calendar is wrong")
                .isZero();
    }

    @Test
    void concurrentBookingsOfOneTenantCannotTogetherPassItsCap() throws Exception {
        Setup s = setup(10, 0, 16, false);
        CyclicBarrier start = new CyclicBarrier(10);
        List<Callable<Integer>> racers = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            int offset = i;
            racers.add(() -> {
                start.await();
                return book(s, 8, hour(3).plus(Duration.ofMinutes(offset)), hour(5))
                        .status();
            });
        }
        List<Integer> statuses = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(10)) {
            for (Future<Integer> status : pool.invokeAll(racers)) {
                statuses.add(status.get());
            }
        }
        assertThat(statuses).containsOnly(201, 422);
        assertThat(statuses.stream().filter(status -> status == 201)).hasSize(2);
    }
}
