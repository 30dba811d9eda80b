package dev.allot.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.billing.metering.Metering;
import dev.allot.provisioning.driver.fake.FakeDriver;
import dev.allot.provisioning.lifecycle.ClusterReconciler;
import dev.allot.support.Api;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A month of a shared pool on the fake driver, with the application's clock run forward from one due lifecycle step
 * to the next (issue 26): a guaranteed tenant and two borrowers book at random, the guaranteed tenant reclaims (at
 * the start its 409 names when the notice is in the way), reservations are cancelled and extended, nodes fail and
 * are quarantined (replaced where a node is free) and come back. After every step:
 * <ul>
 * <li>no node is in two clusters, as the driver reports them;</li>
 * <li>every guaranteed booking is READY (or DEGRADED by a fault) within two minutes of its start, unless a node it
 * held was quarantined (a recorded hardware fault);</li>
 * <li>the calendar equals the allocations, and no free gap overlaps an allocation;</li>
 * <li>no reservation was preempted that held no node of the booking that preempted it.</li>
 * </ul>
 * At the end, billing metered every reservation exactly the GPU-seconds its allocations held from when its cluster
 * was ready, and credited exactly the outages within them.
 */
class GuaranteesSimulatedMonthTests extends LifecycleTest {

    private static final Duration STEP = Duration.ofHours(4);

    private static final int STEPS = 30 * 6;

    private static final Duration SLACK = Duration.ofMinutes(2);

    @Autowired
    FakeDriver fake;

    @Autowired
    ClusterReconciler reconciler;

    @Autowired
    Metering metering;

    @BeforeEach
    void resetTheFakeDriver() {
        fake.reset();
    }

    private record Booked(String id, Setup tenant, Instant start, Instant end, boolean guaranteed) {}

    private final Random random = new Random(26);

    private final Map<String, Booked> booked = new LinkedHashMap<>();

    private final Set<String> faulted = new HashSet<>();

    private final Map<String, Integer> quarantinedAtStep = new HashMap<>();

    private String pool;

    @Test
    void aMonthOfBookingsReclaimsFaultsCancelsAndExtendsKeepsEveryGuaranteeAndBillsExactlyWhatWasHeld() {
        String type = newGpuType();
        setRateCard(type);
        pool = newPool(type, 8);
        List<String> nodes = addNodes(pool, 6, 3);
        Setup guaranteed = setup(4, nodes, pool, type);
        List<Setup> borrowers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Setup borrower = setup(0, nodes, pool, type);
            Map<String, Object> borrowing = policy(type, 0, 48, false);
            borrowing.put("priority", "EXPERIMENT");
            setQuota(borrower.tenant(), borrowing);
            borrowers.add(borrower);
        }
        int refused = 0;
        for (int step = 0; step < STEPS; step++) {
            for (int i = random.nextInt(3); i > 0; i--) {
                Setup borrower = borrowers.get(random.nextInt(borrowers.size()));
                book(
                        borrower,
                        1 + random.nextInt(3),
                        minutesAhead(20 + random.nextInt(12 * 60)),
                        Duration.ofHours(1 + random.nextInt(8)),
                        false);
            }
            if (random.nextInt(100) < 40) {
                Instant start = minutesAhead(40 + random.nextInt(8 * 60));
                Duration length = Duration.ofHours(1 + random.nextInt(5));
                if (!book(guaranteed, 1 + random.nextInt(2), start, length, true)) {
                    refused++;
                }
            }
            if (random.nextInt(100) < 10) {
                live().stream()
                        .skip(random.nextInt(Math.max(1, live().size())))
                        .findFirst()
                        .ifPresent(this::cancel);
            }
            if (random.nextInt(100) < 10) {
                live().stream()
                        .skip(random.nextInt(Math.max(1, live().size())))
                        .findFirst()
                        .ifPresent(this::extend);
            }
            faults(nodes, step);
            runTo(now().plus(STEP));
        }
        // every window ends and is metered
        Instant last = booked.values().stream()
                .map(Booked::end)
                .max(Instant::compareTo)
                .orElse(now());
        runTo(later(now(), last).plus(Duration.ofHours(3)));
        metering.meterDue(now());

        long preempted = jdbc.sql("SELECT count(*) FROM reservation r JOIN pool p ON p.id = r.pool_id "
                        + "WHERE p.name = ? AND r.lifecycle_status = 'PREEMPTED'")
                .param(pool)
                .query(Long.class)
                .single();
        System.out.printf(
                "Simulated month on %s: %d bookings (%d guaranteed, %d guaranteed refused), %d preempted "
                        + "(%d holding no node of their preemptor), %d nodes faulted%n",
                pool,
                booked.size(),
                booked.values().stream().filter(Booked::guaranteed).count(),
                refused,
                preempted,
                preemptedForNothing(),
                faulted.size());
        assertThat(booked.values().stream().filter(Booked::guaranteed))
                .as("guaranteed bookings made")
                .hasSizeGreaterThan(20);
        assertThat(preempted).as("preemptions").isPositive();
        assertBilledExactlyWhatWasHeld();
    }

    /** A minute-aligned instant this many minutes ahead. */
    private static Instant minutesAhead(int minutes) {
        return now().truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(minutes));
    }

    /**
     * Books; a guaranteed booking refused because borrowers' notice is in the way books again at the start its 409
     * names, as a team's CI would. Whether it was booked.
     */
    private boolean book(Setup tenant, int nodes, Instant start, Duration length, boolean guaranteed) {
        Api.Response response = book(tenant, nodes * 8, start, start.plus(length), "KUBERNETES");
        if (response.status() == 409 && guaranteed && response.json().has("earliestStart")) {
            start = Instant.parse(response.json().get("earliestStart").asString());
            response = book(tenant, nodes * 8, start, start.plus(length), "KUBERNETES");
        }
        if (response.status() != 201) {
            assertThat(response.status()).as(response.body()).isIn(409, 422);
            return false;
        }
        String id = response.json().get("id").asString();
        // the lifecycle schedules its steps from booking's event, after commit: before the clock moves on
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> scheduled("cluster-teardown", id) != null);
        booked.put(
                id,
                new Booked(
                        id,
                        tenant,
                        start,
                        start.plus(length),
                        guaranteed && !response.json().get("preemptible").asBoolean()));
        return true;
    }

    private List<Booked> live() {
        return booked.values().stream()
                .filter(b -> b.end().isAfter(now()))
                .filter(b -> {
                    String status = reservationStatus(b.tenant(), b.id());
                    return status.equals("CONFIRMED") || status.equals("PROVISIONING") || status.equals("ACTIVE");
                })
                .toList();
    }

    private void cancel(Booked b) {
        Api.Response cancelled =
                api.post(path(b.tenant(), b.id()) + "/cancel", b.tenant().token(), Map.of());
        assertThat(cancelled.status()).as(cancelled.body()).isIn(200, 409);
    }

    private void extend(Booked b) {
        Api.Response current = api.get(path(b.tenant(), b.id()), b.tenant().token());
        Instant end = Instant.parse(current.json().get("endsAt").asString()).plus(Duration.ofHours(1));
        Api.Response extended = api.patch(
                path(b.tenant(), b.id()),
                b.tenant().token(),
                Map.of("endsAt", end.toString()),
                "If-Match",
                current.header("ETag"));
        assertThat(extended.status()).as(extended.body()).isIn(200, 409, 412, 422);
        if (extended.status() == 200) {
            booked.put(b.id(), new Booked(b.id(), b.tenant(), b.start(), end, b.guaranteed()));
        }
    }

    /** Now and then a node fails and is quarantined (its reservations get another where one is free); back later. */
    private void faults(List<String> nodes, int step) {
        quarantinedAtStep.entrySet().removeIf(e -> {
            if (step - e.getValue() < 3) {
                return false;
            }
            assertThat(api.post("/api/v1/nodes/" + e.getKey() + "/release", adminToken(), Map.of("reason", "repaired"))
                            .status())
                    .isEqualTo(200);
            return true;
        });
        if (random.nextInt(100) < 5 && quarantinedAtStep.isEmpty()) {
            String node = nodes.get(random.nextInt(nodes.size()));
            Api.Response quarantined = api.post(
                    "/api/v1/nodes/" + node + "/quarantine",
                    adminToken(),
                    Map.of("reason", "XID 79 in the simulation"));
            assertThat(quarantined.status()).as(quarantined.body()).isEqualTo(200);
            // remediation moves the node's reservations after commit: let it finish before the clock moves on
            Timestamp at = Timestamp.from(now());
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() ->
                            jdbc.sql("""
					SELECT count(*) FROM allocation a JOIN node n ON n.id = a.node_id
					WHERE n.hostname = ? AND a.active AND upper(a.during) > ?
					  AND NOT EXISTS (SELECT 1 FROM cluster_event e WHERE e.reservation_id = a.reservation_id
					                  AND e.step = 'remediation' AND e.detail LIKE '%' || n.hostname || '%')""").params(node, at).query(Long.class).single() == 0);
            quarantinedAtStep.put(node, step);
            faulted.add(node);
        }
    }

    /** Runs the clock to {@code target}, stopping at every lifecycle step due on the way, checking after each. */
    private void runTo(Instant target) {
        while (true) {
            Instant next = jdbc.sql("""
					SELECT min(execution_time) FROM scheduled_tasks
					WHERE task_name IN ('cluster-provision', 'cluster-teardown', 'cluster-health-check',
					                    'cluster-node-recheck') AND picked = false""")
                    .query(Timestamp.class)
                    .optional()
                    .map(Timestamp::toInstant)
                    .filter(at -> !at.isAfter(target))
                    .orElse(target);
            advanceTo(next);
            runDueAt(now());
            reconciler.pass();
            metering.meterDue(now());
            check();
            if (!next.isBefore(target)) {
                return;
            }
        }
    }

    private static void advanceTo(Instant at) {
        Duration ahead = Duration.between(now(), at);
        if (ahead.isPositive()) {
            advanceApplicationClock(ahead);
        }
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private void check() {
        Instant now = now();
        // no node in two clusters, as the driver reports them
        List<String> inClusters = fake.clusters().values().stream()
                .flatMap(c -> c.nodes().stream())
                .toList();
        assertThat(inClusters)
                .as(() -> "nodes in two clusters at " + now + ": " + clustersOfTwice(inClusters))
                .doesNotHaveDuplicates();
        // every guaranteed booking within its guarantee is READY within the slack of its start
        for (Booked b : booked.values()) {
            if (!b.guaranteed() || now.isBefore(b.start().plus(SLACK)) || !now.isBefore(b.end())) {
                continue;
            }
            var cluster = cluster(b.tenant(), b.id());
            String status = cluster.get("reservationStatus").asString();
            if (status.equals("CANCELLED") || status.equals("COMPLETED")) {
                continue;
            }
            boolean explained = cluster.get("nodes")
                            .valueStream()
                            .anyMatch(n -> faulted.contains(n.get("hostname").asString()))
                    || jdbc.sql("""
							SELECT count(*) FROM allocation a JOIN node n ON n.id = a.node_id
							WHERE a.reservation_id = ?::uuid AND n.hostname = ANY(?)""")
                                    .params(b.id(), faulted.toArray(String[]::new))
                                    .query(Long.class)
                                    .single()
                            > 0;
            if (!explained) {
                assertThat(cluster.get("state").asString())
                        .as("guaranteed %s at %s: %s", b.id(), now, cluster)
                        .isIn("READY", "DEGRADED");
            }
        }
        // the calendar equals the allocations; no free gap overlaps an allocation
        assertThat(jdbc.sql("""
				WITH p AS (SELECT id FROM pool WHERE name = :pool),
				truth AS (
				    SELECT b, count(DISTINCT a.node_id) AS n FROM allocation a JOIN node nd ON nd.id = a.node_id,
				         generate_series(date_trunc('hour', greatest(lower(a.during), CAST(:from AS timestamptz)), 'UTC'),
				                         least(upper(a.during), CAST(:to AS timestamptz)) - interval '1 microsecond',
				                         interval '1 hour') b
				    WHERE a.active AND nd.pool_id = (SELECT id FROM p)
				      AND a.during && tstzrange(CAST(:from AS timestamptz), CAST(:to AS timestamptz))
				    GROUP BY 1),
				kept AS (SELECT hour AS b, sum(allocated_nodes) AS n FROM pool_hour
				         WHERE pool_id = (SELECT id FROM p) AND hour >= :from AND hour < :to GROUP BY 1)
				SELECT count(*) FROM truth t FULL JOIN kept k ON k.b = t.b WHERE coalesce(t.n, 0) <> coalesce(k.n, 0)""")
                        .param("pool", pool)
                        .param(
                                "from",
                                Timestamp.from(now.truncatedTo(ChronoUnit.HOURS).minus(Duration.ofDays(1))))
                        .param(
                                "to",
                                Timestamp.from(now.truncatedTo(ChronoUnit.HOURS).plus(Duration.ofDays(2))))
                        .query(Long.class)
                        .single())
                .as("hours whose calendar disagrees with the allocations at " + now)
                .isZero();
        assertThat(jdbc.sql("""
				SELECT count(*) FROM allocation a JOIN free_gap g ON g.node_id = a.node_id AND g.during && a.during
				JOIN node n ON n.id = a.node_id JOIN pool p ON p.id = n.pool_id WHERE a.active AND p.name = ?""").param(pool).query(Long.class).single())
                .as("free gaps overlapping allocations")
                .isZero();
        assertThat(preemptedForNothing())
                .as("preempted holding no node of their preemptor at " + now)
                .isZero();
    }

    /**
     * Reservations preempted that held no node of the booking that preempted them (the booking its request created),
     * judged by every allocation the booking ever had (a later booking's repacking may have moved it since).
     */
    private long preemptedForNothing() {
        return jdbc.sql("""
				SELECT count(*) FROM audit_event pe
				JOIN reservation v ON v.id::text = pe.object_id AND v.lifecycle_status = 'PREEMPTED'
				JOIN pool p ON p.id = v.pool_id AND p.name = ?
				JOIN audit_event ce ON ce.request_id = pe.request_id AND ce.action = 'reservation.created'
				JOIN reservation b ON b.id::text = ce.object_id
				WHERE pe.action = 'reservation.preempted' AND NOT EXISTS (
				    SELECT 1 FROM allocation va JOIN allocation ba ON ba.node_id = va.node_id
				    WHERE va.reservation_id = v.id AND ba.reservation_id = b.id)""").param(pool).query(Long.class).single();
    }

    /** For a failure message: each cluster holding a node another holds too, with its reservation and timeline. */
    private String clustersOfTwice(List<String> inClusters) {
        Set<String> twice = new HashSet<>();
        Set<String> seen = new HashSet<>();
        inClusters.forEach(n -> {
            if (!seen.add(n)) {
                twice.add(n);
            }
        });
        StringBuilder out = new StringBuilder();
        fake.clusters().forEach((id, c) -> {
            if (c.nodes().stream().anyMatch(twice::contains)) {
                Booked b = booked.get(id.toString());
                out.append("\n")
                        .append(id)
                        .append(" ")
                        .append(c.nodes())
                        .append(" window ")
                        .append(c.spec().startsAt())
                        .append("..")
                        .append(c.spec().endsAt())
                        .append(" holdings ")
                        .append(jdbc.sql(
                                        "SELECT string_agg(n.hostname || ' ' || a.during::text || ' ' || a.active, '; ') "
                                                + "FROM allocation a JOIN node n ON n.id = a.node_id WHERE a.reservation_id = ?")
                                .param(id)
                                .query(String.class)
                                .single());
                if (b != null) {
                    var cluster = cluster(b.tenant(), b.id());
                    out.append(" ")
                            .append(cluster.get("reservationStatus").asString())
                            .append(" ")
                            .append(cluster.get("state").asString());
                    cluster.get("timeline")
                            .valueStream()
                            .forEach(e -> out.append("\n    ")
                                    .append(e.get("at").asString())
                                    .append(" ")
                                    .append(e.get("step").asString())
                                    .append(" ")
                                    .append(e.get("outcome").asString())
                                    .append(" ")
                                    .append(e.get("detail").asString()));
                }
            }
        });
        return out.toString();
    }

    /**
     * Each reservation's metered GPU-seconds are the seconds its live allocations held each node, from when its
     * cluster was ready (never before its start; a cluster ready late is charged from the next whole minute) to its preemption if it was preempted (the notice is not charged),
     * times the GPUs per node; its credits the seconds of each outage of a node within those, whole seconds per
     * metered hour; a failed reservation is charged nothing.
     */
    private void assertBilledExactlyWhatWasHeld() {
        String billed = """
				SELECT a.during * o.during * tstzrange(greatest(r.starts_at, date_trunc('minute', c.ready_at)
				           + CASE WHEN date_trunc('minute', c.ready_at) = c.ready_at THEN interval '0' ELSE interval '1 minute' END),
				           CASE WHEN r.lifecycle_status = 'PREEMPTED' THEN r.status_changed_at END) AS h
				FROM allocation a JOIN reservation r ON r.id = a.reservation_id
				JOIN cluster c ON c.reservation_id = r.id JOIN node n ON n.id = a.node_id
				JOIN %s
				WHERE a.reservation_id = ?::uuid AND a.active AND c.ready_at IS NOT NULL
				  AND r.lifecycle_status IS DISTINCT FROM 'FAILED'""";
        String perHour = """
				SELECT coalesce(sum(8 * floor(extract(epoch FROM upper(p) - lower(p)))), 0)::bigint FROM (
				    SELECT x.h * tstzrange(hr, hr + interval '1 hour') AS p FROM (%s) x,
				    generate_series(date_trunc('hour', lower(x.h)), upper(x.h), interval '1 hour') hr
				    WHERE NOT isempty(x.h)) y WHERE NOT isempty(p)""";
        List<String> wrong = new ArrayList<>();
        for (Booked b : booked.values()) {
            long expectedUsage = jdbc.sql(
                            perHour.formatted(billed.formatted("(SELECT tstzrange(NULL, NULL) AS during) o ON true")))
                    .param(b.id())
                    .query(Long.class)
                    .single();
            long expectedCredit = jdbc.sql(
                            perHour.formatted(billed.formatted("node_outage o ON o.hostname = n.hostname")))
                    .param(b.id())
                    .query(Long.class)
                    .single();
            long usage = posted(b.id(), "USAGE");
            long credit = posted(b.id(), "CREDIT");
            if (usage != expectedUsage || credit != expectedCredit) {
                wrong.add(b.id() + ": usage " + usage + " (held " + expectedUsage + "), credit " + credit + " (outages "
                        + expectedCredit + "); "
                        + jdbc.sql("""
								SELECT concat_ws(' ', r.lifecycle_status, r.starts_at, r.ends_at, r.status_changed_at,
								    c.ready_at, b.stopped_at, b.cancelled_at, b.ends_at,
								    (SELECT string_agg(a.during::text || a.active, ', ') FROM allocation a
								     WHERE a.reservation_id = r.id))
								FROM reservation r JOIN cluster c ON c.reservation_id = r.id
								JOIN billable_reservation b ON b.reservation_id = r.id WHERE r.id = ?::uuid""").param(b.id()).query(String.class).single());
            }
        }
        assertThat(wrong).as("reservations billed other than what they held").isEmpty();
    }

    private long posted(String id, String line) {
        return jdbc.sql("""
				SELECT coalesce(sum(e.gpu_seconds), 0) FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id
				WHERE a.kind = 'RECEIVABLE' AND e.reservation_id = ?::uuid AND e.line = ?""").params(id, line).query(Long.class).single();
    }
}
