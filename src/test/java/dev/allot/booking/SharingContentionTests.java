package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Borrowers and guaranteed tenants book one pool at the same time from 16 threads: guaranteed bookings reclaim
 * nodes from borrowers while borrowers keep filling the pool. Then SQL checks what was committed.
 */
class SharingContentionTests extends BookingFixture {

    private static final int THREADS = 16;

    private static final int OPERATIONS_PER_THREAD = 20;

    @Test
    void borrowersAndGuaranteedTenantsBookAtOnceWithoutDoubleBookingOrServerErrors() throws Exception {
        Setup first = setup(8, 32, 32, false);
        prioritize(first, 32, 32, "PRODUCTION_INFERENCE");
        Setup second = tenantOn(first.gpuType(), first.pool(), first.nodes(), 32, 32, false);
        prioritize(second, 32, 32, "TRAINING");
        Setup borrower = tenantOn(first.gpuType(), first.pool(), first.nodes(), 0, 64, false);
        prioritize(borrower, 0, 64, "EXPERIMENT");
        Setup other = tenantOn(first.gpuType(), first.pool(), first.nodes(), 0, 64, false);
        prioritize(other, 0, 64, "EXPERIMENT");
        List<Setup> guaranteed = List.of(first, second);
        List<Setup> borrowers = List.of(borrower, other);
        Instant base = hour(2);
        Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> serverErrors = new ConcurrentLinkedQueue<>();

        List<Runnable> clients = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            boolean guaranteedClient = t % 2 == 0;
            Setup tenant = guaranteedClient ? guaranteed.get(t / 2 % 2) : borrowers.get(t / 2 % 2);
            clients.add(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int op = 0; op < OPERATIONS_PER_THREAD; op++) {
                    Instant start = base.plus(Duration.ofHours(random.nextInt(12)));
                    Instant end = start.plus(Duration.ofHours(1 + random.nextInt(3)));
                    Api.Response response =
                            book(tenant, guaranteedClient ? 8 : 8 * (1 + random.nextInt(4)), start, end);
                    String outcome = (guaranteedClient ? "guaranteed " : "borrower ")
                            + response.status()
                            + (response.status() == 409
                                            && response.json().has("reclaimConsidered")
                                            && response.json()
                                                    .get("reclaimConsidered")
                                                    .asBoolean()
                                    ? " after reclaiming"
                                    : "");
                    outcomes.computeIfAbsent(outcome, k -> new AtomicInteger()).incrementAndGet();
                    if (response.status() >= 500) {
                        serverErrors.add(response.toString());
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
        long millis = (System.nanoTime() - started) / 1_000_000;
        String[] tenants = List.of(first, second, borrower, other).stream()
                .map(Setup::tenant)
                .toArray(String[]::new);
        long preempted = jdbc.sql("SELECT count(*) FROM reservation WHERE tenant_slug = ANY(?) "
                        + "AND lifecycle_status = 'PREEMPTED'")
                .param(tenants)
                .query(Long.class)
                .single();
        System.out.printf(
                "Sharing contention: %d bookings in %d ms, %s, %d preempted (load average %.1f)%n",
                THREADS * OPERATIONS_PER_THREAD,
                millis,
                outcomes,
                preempted,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());

        assertThat(serverErrors).isEmpty();
        // At most one of the about 60 guaranteed bookings that fit: in the full CI suite (a warm application, the run
        // over in 2 s) one was refused after reclaiming in 2 of 4 runs, and never in over 50 runs of this class alone;
        // the
        // application logs why (a lost race in every try, or no room found). Issue 26 tracks it (docs/sharing.md;
        // CHANGELOG.md).
        AtomicInteger none = new AtomicInteger();
        assertThat(outcomes.getOrDefault("guaranteed 409 after reclaiming", none)
                        .get())
                .as("guaranteed bookings refused although reclaiming and repacking were tried")
                .isLessThanOrEqualTo(1);
        assertThat(preempted).as("the run must have reclaimed").isPositive();
        assertThat(jdbc.sql("""
				SELECT count(*) FROM allocation a JOIN allocation b
				  ON a.node_id = b.node_id AND a.id < b.id AND a.active AND b.active AND a.during && b.during
				WHERE a.pool_id = (SELECT id FROM pool WHERE name = ?)""").param(first.pool()).query(Integer.class).single())
                .as("node-instants held twice")
                .isZero();
        assertThat(jdbc.sql("""
				SELECT count(*) FROM reservation r
				WHERE r.tenant_slug = ANY(?) AND (SELECT count(*) FROM allocation a
				                                  WHERE a.reservation_id = r.id AND a.active) > r.gpus / 8""").param(tenants).query(Long.class).single())
                .as("reservations holding more nodes than they booked")
                .isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM reservation WHERE tenant_slug = ANY(?) "
                                + "AND lifecycle_status = 'PREEMPTED' AND NOT preemptible")
                        .param(tenants)
                        .query(Long.class)
                        .single())
                .as("reservations preempted although not preemptible")
                .isZero();
        assertThat(jdbc.sql("""
				SELECT count(*) FROM reservation r WHERE r.tenant_slug = ANY(?) AND r.lifecycle_status = 'PREEMPTED'
				  AND (EXISTS (SELECT 1 FROM allocation a WHERE a.reservation_id = r.id AND a.active)
				       OR EXISTS (SELECT 1 FROM quota_usage u WHERE u.reservation_id = r.id))""").param(tenants).query(Long.class).single())
                .as("preempted reservations (all further ahead than the notice) still holding nodes or usage")
                .isZero();
    }
}
