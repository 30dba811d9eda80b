package dev.allot.replicas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Clients booking and cancelling overlapping windows of one small pool, each thread through the replica
 * {@code route} names for it at each request (a load balancer), each booking with its own idempotency key. Records
 * what was acknowledged (a 201 booking, a 200 cancel), every status, and every request that got no answer (a
 * refused or broken connection) with its time.
 */
final class BookingLoad {

    final Map<String, String> booked = new ConcurrentHashMap<>();

    final Set<String> cancelled = ConcurrentHashMap.newKeySet();

    final Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();

    /** Answers other than a booking, a cancel, a conflict (409) or a quota refusal (422). */
    final ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();

    /** Requests that got no HTTP answer, with when they failed. */
    final ConcurrentLinkedQueue<Instant> unanswered = new ConcurrentLinkedQueue<>();

    /** Every request's outcome: when it was sent, when it ended and its status, -1 for no answer. */
    final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();

    record Outcome(Instant sent, Instant at, int status) {

        /** Served as the API promises: a booking, a cancel, a conflict or a quota refusal. */
        boolean served() {
            return Set.of(200, 201, 409, 422).contains(status);
        }
    }

    private final List<ReplicaFleet.Tenant> tenants;

    private final String pool;

    private final Instant base;

    BookingLoad(List<ReplicaFleet.Tenant> tenants, String pool, Instant base) {
        this.tenants = tenants;
        this.pool = pool;
        this.base = base;
    }

    /** Runs {@code threads} clients until each made {@code operations} requests or {@code stop} says so. */
    void run(int threads, int operations, IntFunction<Api> route, BooleanSupplier stop) throws Exception {
        List<Runnable> clients = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            ReplicaFleet.Tenant tenant = tenants.get(t % tenants.size());
            clients.add(() -> {
                for (int op = 0; op < operations && !stop.getAsBoolean(); op++) {
                    operate(thread, tenant, route.apply(thread));
                }
            });
        }
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> running =
                    clients.stream().<Future<?>>map(pool::submit).toList();
            for (Future<?> client : running) {
                client.get();
            }
        }
    }

    private void operate(int thread, ReplicaFleet.Tenant tenant, Api api) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        List<String> mine = booked.entrySet().stream()
                .filter(e -> e.getValue().equals(tenant.slug()) && !cancelled.contains(e.getKey()))
                .map(Map.Entry::getKey)
                .toList();
        Instant sent = Instant.now();
        try {
            Api.Response response;
            if (random.nextInt(10) < 7 || mine.isEmpty()) {
                Instant start = base.plus(Duration.ofMinutes(random.nextInt(12 * 60)));
                Instant end = start.plus(Duration.ofMinutes(30 + random.nextInt(4 * 60)));
                response = api.post(
                        tenant.reservations(),
                        tenant.token(),
                        ReplicaFleet.booking(pool, 8 * (1 + random.nextInt(2)), start, end),
                        "Idempotency-Key",
                        UUID.randomUUID().toString());
                if (response.status() == 201) {
                    booked.put(response.json().get("id").asString(), tenant.slug());
                }
            } else {
                String id = mine.get(random.nextInt(mine.size()));
                response = api.post(tenant.reservations() + "/" + id + "/cancel", tenant.token(), Map.of());
                if (response.status() == 200) {
                    cancelled.add(id);
                }
            }
            Outcome outcome = new Outcome(sent, Instant.now(), response.status());
            outcomes.add(outcome);
            statuses.computeIfAbsent(response.status(), k -> new AtomicInteger())
                    .incrementAndGet();
            if (!outcome.served()) {
                unexpected.add("thread " + thread + ": " + response
                        + (response.status() == 503 && response.header("Retry-After") == null
                                ? " (no Retry-After)"
                                : ""));
            }
        } catch (IllegalStateException noAnswer) {
            unanswered.add(Instant.now());
            outcomes.add(new Outcome(sent, Instant.now(), -1));
        } catch (AssertionError undocumented) {
            // an answer openapi.yaml does not list (a 500 while the database is away): a failed request
            unexpected.add("thread " + thread + ": " + undocumented.getMessage());
            outcomes.add(new Outcome(sent, Instant.now(), 500));
        }
    }

    /**
     * Checks {@code db} holds what the clients were told: every acknowledged booking, every acknowledged cancel,
     * and no node-instant held twice.
     */
    void assertStoredIn(JdbcClient db) {
        assertThat(db.sql("SELECT count(*) FROM reservation WHERE id::text = ANY(?)")
                        .param(booked.keySet().toArray(String[]::new))
                        .query(Integer.class)
                        .single())
                .as("acknowledged bookings stored")
                .isEqualTo(booked.size());
        assertThat(db.sql("SELECT count(*) FROM reservation WHERE id::text = ANY(?) AND cancelled_at IS NULL")
                        .param(cancelled.toArray(String[]::new))
                        .query(Integer.class)
                        .single())
                .as("acknowledged cancellations not stored")
                .isZero();
        assertThat(db.sql("""
				SELECT count(*) FROM allocation a JOIN allocation b
				  ON a.node_id = b.node_id AND a.id < b.id AND a.active AND b.active AND a.during && b.during""").query(Integer.class).single())
                .as("node-instants held twice (double bookings)")
                .isZero();
    }

    int count(int status) {
        AtomicInteger n = statuses.get(status);
        return n == null ? 0 : n.get();
    }
}
