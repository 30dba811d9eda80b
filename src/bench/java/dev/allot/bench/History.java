package dev.allot.bench;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Seeds a booking history with COPY, exactly as the application would have written it: reservations, their node
 * allocations, each node's free gaps (the complement of its allocations), the tenants' quota usage (one RESERVED
 * segment per month touched), and the capacity calendar per pool and UTC hour and day. Not seeded: what booking's
 * events cause downstream (clusters, billing, audit), which the history does not need.
 *
 * <p>Nodes are laid out in lanes of 1, 2, 4 or 8 neighbours (the fewest that keep reservations within 72 hours) of one InfiniBand block sharing one timeline of
 * back-to-back reservations and gaps over a year ({@link #SPAN}, ending 95 days ahead, which covers every window
 * the load books), sized so that the reservations number {@code reservations} and cover {@code occupancy} of the
 * node-hours, in the past as in the future.
 */
final class History {

    static final Duration SPAN = Duration.ofDays(365);

    static final Duration AHEAD = Duration.ofDays(95);

    private static final String CLUSTER =
            "{\"orchestrator\":\"KUBERNETES\",\"cudaDriver\":null,\"sharedMemoryGi\":null,"
                    + "\"volumes\":[],\"sshPublicKeys\":[]}";

    /** Tables a history lives in; the downstream ones are emptied along with them. */
    private static final String TABLES = "reservation, allocation, free_gap, quota_usage, quota_usage_edge, "
            + "quota_usage_level, quota_spend, pool_hour, pool_day, cluster, cluster_event, event_publication";

    record Seeded(long reservations, long allocations, long gaps, long usage, double seconds, double indexSeconds) {}

    private History() {}

    static Seeded seed(Settings settings, Fleet fleet, Settings.Scenario scenario, Instant now) throws Exception {
        long started = System.nanoTime();
        Instant end = now.truncatedTo(ChronoUnit.HOURS).plus(AHEAD);
        Instant origin = end.minus(SPAN);
        int hours = (int) SPAN.toHours();
        int days = (int) SPAN.toDays() + 1;
        long[][] poolHours = new long[Settings.POOLS.length][hours + 1];
        long[][] poolDays = new long[Settings.POOLS.length][days + 1];
        List<String> recreate;
        try (Connection c = Fleet.connect(settings);
                Statement st = c.createStatement()) {
            st.execute("TRUNCATE " + TABLES + " CASCADE");
            st.execute("DELETE FROM scheduled_tasks WHERE task_name LIKE 'cluster-%'");
            recreate = dropIndexes(st);
        }
        double occupancy = scenario.occupancyPercent() / 100.0;
        double nodeHoursEach = occupancy * SPAN.toHours() * settings.nodes() / Math.max(1, scenario.reservations());
        // the fewest nodes per reservation that keep reservations within the 72 hours a booking may ask for
        int group = 1;
        while (group < 8 && nodeHoursEach / group > 72) {
            group *= 2;
        }
        SplittableRandom random = new SplittableRandom(scenario.reservations() * 31 + scenario.occupancyPercent());
        List<Fleet.Tenant> tenants = fleet.generous();
        long reservations = 0;
        try (Connection cr = open(settings);
                Connection ca = open(settings);
                Connection cg = open(settings);
                Connection cu = open(settings);
                Copy res = new Copy(
                        cr,
                        "reservation",
                        "id, tenant_id, tenant_slug, project_id, project_slug, pool_id, "
                                + "pool_name, gpu_type, gpus, starts_at, ends_at, preemptible, cluster, quote, nodes, version, created_at");
                Copy alloc = new Copy(ca, "allocation", "reservation_id, node_id, pool_id, during");
                Copy gaps = new Copy(cg, "free_gap", "node_id, pool_id, ib_block, during");
                Copy usage = new Copy(
                        cu,
                        "quota_usage",
                        "reservation_id, tenant_id, project, gpu_type_id, during, reserved_gpus, "
                                + "borrowed_gpus, on_demand_gpus, currency, price_reserved, price_borrowed, price_on_demand, amount")) {
            int perPool = settings.nodesPerPool();
            for (int p = 0; p < Settings.POOLS.length; p++) {
                for (int first = 0; first < perPool; first += group) {
                    int size = Math.min(group, perPool - first);
                    int base = p * perPool + first;
                    // expected reservations in this lane, and the mean length of a reservation and of a gap
                    double perLane = (double) scenario.reservations() * size / settings.nodes();
                    double slot = SPAN.toMinutes() / Math.max(perLane, 1e-9);
                    double busy = occupancy * slot;
                    double idle = (1 - occupancy) * slot;
                    List<Instant> starts = new ArrayList<>();
                    List<Instant> ends = new ArrayList<>();
                    long t = (long) (random.nextDouble() * idle);
                    while (scenario.reservations() > 0 && occupancy > 0) {
                        long length = Math.max(1, Math.round(busy * (0.5 + random.nextDouble())));
                        if (t + length > SPAN.toMinutes()) {
                            break;
                        }
                        starts.add(origin.plus(Duration.ofMinutes(t)));
                        ends.add(origin.plus(Duration.ofMinutes(t + length)));
                        t += length + Math.max(1, Math.round(idle * (0.5 + random.nextDouble())));
                    }
                    String[] hosts = new String[size];
                    for (int i = 0; i < size; i++) {
                        hosts[i] = fleet.hostnames()[base + i];
                    }
                    String nodes = "{" + String.join(",", hosts) + "}";
                    for (int r = 0; r < starts.size(); r++) {
                        Fleet.Tenant tenant = tenants.get(random.nextInt(tenants.size()));
                        UUID id = new UUID(random.nextLong(), random.nextLong());
                        int gpus = size * Settings.GPUS_PER_NODE;
                        Instant s = starts.get(r);
                        Instant e = ends.get(r);
                        BigDecimal amount = BigDecimal.ZERO;
                        for (Instant[] piece : months(s, e)) {
                            BigDecimal part = amount(gpus, piece[0], piece[1]);
                            amount = amount.add(part);
                            usage.row(
                                    id,
                                    tenant.id(),
                                    Fleet.PROJECT,
                                    fleet.gpuTypeIds().get(p),
                                    range(piece[0], piece[1]),
                                    gpus,
                                    0,
                                    0,
                                    "USD",
                                    "2.0000",
                                    "1.5000",
                                    "4.0000",
                                    part);
                        }
                        BigDecimal gpuHours = BigDecimal.valueOf(
                                        gpus * Duration.between(s, e).toMinutes())
                                .divide(BigDecimal.valueOf(60), 2, RoundingMode.HALF_EVEN);
                        String quote = "{\"gpuType\":\"" + Settings.GPU_TYPES[p] + "\",\"currency\":\"USD\",\"total\":"
                                + amount
                                + ",\"lines\":[{\"rateClass\":\"RESERVED\",\"gpuHours\":" + gpuHours
                                + ",\"pricePerGpuHour\":2.0000,\"amount\":" + amount
                                + "}],\"preemptible\":false,\"budget\":[]}";
                        res.row(
                                id,
                                tenant.id(),
                                tenant.slug(),
                                tenant.projectId(),
                                Fleet.PROJECT,
                                fleet.poolIds().get(p),
                                Settings.POOLS[p],
                                Settings.GPU_TYPES[p],
                                gpus,
                                s,
                                e,
                                "f",
                                CLUSTER,
                                quote,
                                nodes,
                                0,
                                s.minus(Duration.ofDays(7)));
                        for (int i = 0; i < size; i++) {
                            alloc.row(
                                    id,
                                    fleet.nodeIds()[base + i],
                                    fleet.poolIds().get(p),
                                    range(s, e));
                        }
                    }
                    reservations += starts.size();
                    // gaps: the complement of the lane's reservations, unbounded on both ends
                    for (int i = 0; i < size; i++) {
                        long node = fleet.nodeIds()[base + i];
                        String block = Fleet.block(first + i);
                        Instant from = null;
                        for (int r = 0; r < starts.size(); r++) {
                            gaps.row(node, fleet.poolIds().get(p), block, range(from, starts.get(r)));
                            from = ends.get(r);
                        }
                        gaps.row(node, fleet.poolIds().get(p), block, range(from, null));
                    }
                    count(starts, ends, origin, poolHours[p], ChronoUnit.HOURS, size);
                    count(starts, ends, origin, poolDays[p], ChronoUnit.DAYS, size);
                }
            }
            long a = alloc.rows();
            long g = gaps.rows();
            long u = usage.rows();
            res.close();
            alloc.close();
            gaps.close();
            usage.close();
            try (Connection c = Fleet.connect(settings)) {
                c.setAutoCommit(false);
                Instant dayOrigin = origin.truncatedTo(ChronoUnit.DAYS);
                try (Copy ph = new Copy(c, "pool_hour", "pool_id, hour, stripe, allocated_nodes")) {
                    for (int p = 0; p < Settings.POOLS.length; p++) {
                        for (int h = 0; h < poolHours[p].length; h++) {
                            if (poolHours[p][h] > 0) {
                                ph.row(fleet.poolIds().get(p), origin.plus(Duration.ofHours(h)), 0, poolHours[p][h]);
                            }
                        }
                    }
                }
                try (Copy pd = new Copy(c, "pool_day", "pool_id, day, stripe, allocated_nodes")) {
                    for (int p = 0; p < Settings.POOLS.length; p++) {
                        for (int d = 0; d < poolDays[p].length; d++) {
                            if (poolDays[p][d] > 0) {
                                pd.row(fleet.poolIds().get(p), dayOrigin.plus(Duration.ofDays(d)), 0, poolDays[p][d]);
                            }
                        }
                    }
                }
                c.commit();
            }
            try (Connection c = Fleet.connect(settings);
                    Statement st = c.createStatement()) {
                // COPY ran without triggers: derive the maintained usage and spend as the migration does
                st.execute("SELECT quota_usage_rebuild()");
            }
            double copied = (System.nanoTime() - started) / 1e9;
            long indexStart = System.nanoTime();
            restore(settings, recreate);
            double indexed = (System.nanoTime() - indexStart) / 1e9;
            return new Seeded(reservations, a, g, u, copied + indexed, indexed);
        }
    }

    /** Rebuilds the dropped indexes, one connection per table (GiST builds are single-threaded), then analyzes. */
    private static void restore(Settings settings, List<String> recreate) throws Exception {
        Map<String, List<String>> byTable = new TreeMap<>();
        for (String ddl : recreate) {
            String table = ddl.startsWith("ALTER TABLE ")
                    ? ddl.split(" ")[2]
                    : ddl.replaceAll("(?s).* ON (public\\.)?(\\w+) .*", "$2");
            byTable.computeIfAbsent(table, k -> new ArrayList<>()).add(ddl);
        }
        List<Thread> threads = new ArrayList<>();
        List<Exception> failures = Collections.synchronizedList(new ArrayList<>());
        for (List<String> ddls : byTable.values()) {
            threads.add(Thread.ofPlatform().start(() -> {
                try (Connection c = Fleet.connect(settings);
                        Statement st = c.createStatement()) {
                    st.execute("SET maintenance_work_mem = '512MB'");
                    for (String ddl : ddls) {
                        st.execute(ddl);
                    }
                } catch (Exception ex) {
                    failures.add(ex);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        if (!failures.isEmpty()) {
            throw failures.getFirst();
        }
        try (Connection c = Fleet.connect(settings);
                Statement st = c.createStatement()) {
            st.execute(
                    "VACUUM ANALYZE reservation, allocation, free_gap, quota_usage, quota_usage_edge, quota_usage_level, "
                            + "quota_spend, pool_hour, pool_day, node");
        }
    }

    /** A COPY connection that skips foreign-key triggers: the rows are consistent by construction. */
    private static Connection open(Settings settings) throws SQLException {
        Connection c = Fleet.connect(settings);
        try (Statement st = c.createStatement()) {
            st.execute("SET session_replication_role = replica");
        }
        return c;
    }

    /** Drops the GiST indexes and exclusion constraints of the big tables; answers the DDL that restores them. */
    private static List<String> dropIndexes(Statement st) throws SQLException {
        List<String> restore = new ArrayList<>();
        List<String> drop = new ArrayList<>();
        try (ResultSet rs = st.executeQuery("""
				SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint
				WHERE contype = 'x' AND conrelid::regclass::text IN ('allocation', 'free_gap')""")) {
            while (rs.next()) {
                drop.add("ALTER TABLE " + rs.getString(1) + " DROP CONSTRAINT " + rs.getString(2));
                restore.add("ALTER TABLE " + rs.getString(1) + " ADD CONSTRAINT " + rs.getString(2) + " "
                        + rs.getString(3));
            }
        }
        try (ResultSet rs = st.executeQuery("""
				SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i
				WHERE i.indrelid::regclass::text IN ('reservation', 'allocation', 'free_gap', 'quota_usage')
				  AND NOT i.indisprimary AND NOT i.indisunique AND NOT EXISTS (
				      SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)""")) {
            while (rs.next()) {
                drop.add("DROP INDEX " + rs.getString(1));
                restore.add(rs.getString(2));
            }
        }
        for (String ddl : drop) {
            st.execute(ddl);
        }
        return restore;
    }

    /** Adds {@code nodes} to every bucket the lane's reservations touch (a bucket shared by two counts once). */
    private static void count(
            List<Instant> starts, List<Instant> ends, Instant origin, long[] buckets, ChronoUnit unit, int nodes) {
        Instant base = origin.truncatedTo(unit);
        long last = -1;
        for (int r = 0; r < starts.size(); r++) {
            long first = unit.between(base, starts.get(r).truncatedTo(unit));
            long stop = unit.between(base, ends.get(r).minusNanos(1000).truncatedTo(unit));
            for (long b = Math.max(first, last + 1); b <= stop; b++) {
                buckets[(int) b] += nodes;
            }
            last = Math.max(last, stop);
        }
    }

    private static List<Instant[]> months(Instant start, Instant end) {
        List<Instant[]> pieces = new ArrayList<>();
        Instant from = start;
        YearMonth month = YearMonth.from(start.atOffset(ZoneOffset.UTC)).plusMonths(1);
        for (Instant cut = month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
                cut.isBefore(end);
                month = month.plusMonths(1), cut = month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC)) {
            pieces.add(new Instant[] {from, cut});
            from = cut;
        }
        pieces.add(new Instant[] {from, end});
        return pieces;
    }

    private static BigDecimal amount(int gpus, Instant from, Instant to) {
        return new BigDecimal("2.0000")
                .multiply(BigDecimal.valueOf(gpus * Duration.between(from, to).toMinutes()))
                .divide(BigDecimal.valueOf(60), 4, RoundingMode.HALF_EVEN);
    }

    static String range(Instant from, Instant to) {
        return (from == null ? "(" : "[" + from) + "," + (to == null ? ")" : to + ")");
    }
}
