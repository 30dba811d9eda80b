package dev.allot.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.allot.booking.allocation.AllocationRepository;
import dev.allot.booking.allocation.FreeNodeRepository;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.jdbc.core.SqlTypeValue;
import org.springframework.jdbc.core.StatementCreatorUtils;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterUtils;
import org.springframework.jdbc.core.namedparam.ParsedSql;

/**
 * The ceiling: the application's booking transaction issued directly over JDBC, statement for statement as
 * {@code Bookings.book} issues it through {@code Quotas}, {@code FreeNodeRepository}, {@code AllocationRepository},
 * {@code ReservationRepository}, {@code CapacityCalendarRepository}, {@code AuditLog}, {@code CapacityNotifier} and
 * the event publication registry (READ COMMITTED, prepared statements, a Hikari pool of 16 like the application's),
 * driven by the same number of client threads with the same requests.
 *
 * <p>The statements on the nodes and their gaps (finding free nodes, locking them, re-reading their gaps, cutting
 * the window out, allocating, and giving it back) are the application's own texts, its public constants in
 * {@code FreeNodeRepository} and {@code AllocationRepository}, bound by name as its {@code JdbcClient} binds them
 * ({@link #named}): they cannot drift. Copies of the two had (the spare-node condition of the lock, the merged gaps
 * of the return). The quota, reservation, calendar, audit and publication statements are still copies.
 *
 * <p>Where it differs from the application, on purpose: no HTTP, JSON, token or caller resolution; none of the
 * reads that validate a request before the transaction (tenant, membership, project, pool, pool size); the quota
 * rules beyond the GPU split (window length and advance are within limits by construction, no budgets); and no
 * work after commit (the event listeners that plan the cluster and open the billing record, and completing their
 * publications). Those are the application's own costs, which the ratio measures.
 */
final class JdbcMirror implements AutoCloseable {

    /** Each pool's blocks in search order, as the application holds them (read once). */
    private final Map<UUID, List<String>> blocks = new ConcurrentHashMap<>();

    private static final String CALENDAR = """
			WITH hours AS (
			    INSERT INTO pool_hour (pool_id, hour, stripe, allocated_nodes)
			    SELECT ?, h, ?, n
			    FROM unnest(CAST(CAST(? AS text[]) AS timestamptz[]), CAST(? AS int[])) AS x(h, n)
			    ORDER BY h
			    ON CONFLICT (pool_id, hour, stripe)
			    DO UPDATE SET allocated_nodes = pool_hour.allocated_nodes + excluded.allocated_nodes
			    RETURNING 1
			), days AS (
			    INSERT INTO pool_day (pool_id, day, stripe, allocated_nodes)
			    SELECT ?, d, ?, n
			    FROM unnest(CAST(CAST(? AS text[]) AS timestamptz[]), CAST(? AS int[])) AS x(d, n)
			    ORDER BY d
			    ON CONFLICT (pool_id, day, stripe)
			    DO UPDATE SET allocated_nodes = pool_day.allocated_nodes + excluded.allocated_nodes
			    RETURNING 1
			)
			SELECT CAST(pg_current_xact_id() AS text) AS transaction,
			       pg_notify(?, CAST(? AS text) || ';' || pg_current_xact_id() || ';' || ? || ';'
			           || ?) AS sent""";

    private static final String INSERT_RESERVATION = """
			INSERT INTO reservation (id, tenant_id, tenant_slug, project_id, project_slug, pool_id, pool_name, gpu_type,
			    gpus, starts_at, ends_at, preemptible, cluster, quote, nodes, version, idempotency_key, request_hash,
			    created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?, ?, ?)""";

    private static final String INSERT_USAGE = """
			INSERT INTO quota_usage (reservation_id, tenant_id, project, gpu_type_id, during, reserved_gpus,
			    borrowed_gpus, on_demand_gpus, currency, price_reserved, price_borrowed, price_on_demand, amount)
			SELECT ?, ?, ?, ?, tstzrange(s, e, '[)'), r, b, o, ?, ?, ?,
			    ?, a
			FROM unnest(CAST(CAST(? AS text[]) AS timestamptz[]), CAST(CAST(? AS text[]) AS timestamptz[]),
			            CAST(? AS int[]), CAST(? AS int[]), CAST(? AS int[]),
			            CAST(CAST(? AS text[]) AS numeric[])) WITH ORDINALITY AS x(s, e, r, b, o, a, i)
			ORDER BY i""";

    private static final String AUDIT = """
			INSERT INTO audit_event (actor, tenant_slug, action, object_type, object_id, request_id, before, after)
			VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb)
			""";

    private static final String PUBLICATION = "INSERT INTO event_publication (id, event_type, listener_id, "
            + "publication_date, serialized_event, status, completion_attempts, last_resubmission_date) "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

    private static final String[] LISTENERS = {
        "dev.allot.provisioning.lifecycle.ClusterPlanner.on(dev.allot.booking.events.ReservationConfirmed)",
        "dev.allot.billing.metering.BookingEvents.on(dev.allot.booking.events.ReservationConfirmed)"
    };

    private final Fleet fleet;

    private final HikariDataSource pool;

    JdbcMirror(Settings settings, Fleet fleet) {
        this.fleet = fleet;
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(settings.jdbcUrl());
        config.setUsername(settings.databaseUser());
        config.setMaximumPoolSize(16);
        config.setAutoCommit(false);
        this.pool = new HikariDataSource(config);
    }

    Tally.Figures run(Requests requests, int clients, int seconds, long seed) throws InterruptedException {
        return run(requests, clients, seconds, seed, false);
    }

    /**
     * The floor: the least a booking must do on this schema, with the same requests and threads. It locks the
     * nodes free for the window through the gap index (skipping locked ones), splits their gaps, inserts the
     * allocations under the exclusion constraint and charges one counter row, the tenant's quota row.
     */
    Tally.Figures runMinimal(Requests requests, int clients, int seconds, long seed) throws InterruptedException {
        return run(requests, clients, seconds, seed, true);
    }

    private Tally.Figures run(Requests requests, int clients, int seconds, long seed, boolean minimal)
            throws InterruptedException {
        List<Tally> tallies = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long started = System.nanoTime();
        long deadline = started + Duration.ofSeconds(seconds).toNanos();
        for (int i = 0; i < clients; i++) {
            Tally tally = new Tally();
            tallies.add(tally);
            SplittableRandom random = new SplittableRandom(seed * 1000 + i);
            threads.add(Thread.ofPlatform().name("jdbc-client-" + i).start(() -> {
                while (System.nanoTime() < deadline) {
                    Requests.Request request = requests.next(random);
                    long start = System.nanoTime();
                    try (Connection c = pool.getConnection()) {
                        try {
                            String outcome = minimal ? bookMinimal(c, request) : book(c, request);
                            c.commit();
                            switch (outcome) {
                                case "booked" -> tally.accepted++;
                                case "conflict" -> tally.conflicts++;
                                default -> tally.quota++;
                            }
                        } catch (SQLException ex) {
                            c.rollback();
                            if ("23P01".equals(ex.getSQLState())) {
                                tally.conflicts++;
                            } else {
                                throw ex;
                            }
                        }
                    } catch (Exception ex) {
                        tally.errors++;
                        tally.sample(ex.toString());
                    }
                    tally.record(System.nanoTime() - start);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        return Tally.merge(tallies).figures(minimal ? "minimal" : "JDBC", clients, (System.nanoTime() - started) / 1e9);
    }

    private static final String MINIMAL_LOCK = """
			SELECT n.id FROM free_gap g JOIN node n ON n.id = g.node_id
			WHERE g.pool_id = ? AND g.during @> tstzrange(CAST(? AS timestamptz), CAST(? AS timestamptz), '[)')
			  AND n.state = 'AVAILABLE'
			LIMIT ?
			FOR NO KEY UPDATE OF n SKIP LOCKED""";

    /** The minimal transaction; answers booked or conflict (it has no quota rules). */
    private String bookMinimal(Connection c, Requests.Request r) throws SQLException {
        Fleet.Tenant tenant = fleet.tenants().get(r.tenant());
        UUID poolId = fleet.poolIds().get(r.pool());
        Timestamp start = Timestamp.from(r.start());
        Timestamp end = Timestamp.from(r.end());
        List<Long> locked = new ArrayList<>();
        try (PreparedStatement ps = prepare(c, MINIMAL_LOCK, poolId, start, end, r.nodes());
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                locked.add(rs.getLong(1));
            }
        }
        if (locked.size() < r.nodes()) {
            c.rollback();
            return "conflict";
        }
        Long[] nodes = locked.toArray(Long[]::new);
        int split = 0;
        try (PreparedStatement ps = named(
                        c,
                        AllocationRepository.TAKE_FROM_GAPS,
                        window(start, end).addValue("nodes", nodes));
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                split++;
            }
        }
        if (split < r.nodes()) {
            // a node's gap changed between the lookup and the lock
            c.rollback();
            return "conflict";
        }
        UUID id = UUID.randomUUID();
        update(
                c,
                "INSERT INTO reservation (id, tenant_id, tenant_slug, project_id, project_slug, pool_id, pool_name, "
                        + "gpu_type, gpus, starts_at, ends_at, preemptible, cluster, quote, nodes, created_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, false, '{}', '{}', '{}', now())",
                id,
                tenant.id(),
                tenant.slug(),
                tenant.projectId(),
                Fleet.PROJECT,
                poolId,
                Settings.POOLS[r.pool()],
                Settings.GPU_TYPES[r.pool()],
                r.gpus(),
                start,
                end);
        allocate(c, id, poolId, nodes, start, end);
        update(c, "UPDATE quota SET version = version + 1 WHERE tenant_id = ?", tenant.id());
        minimalBooked.add(new MinimalBooking(id, poolId, locked, start, end));
        return "booked";
    }

    private record MinimalBooking(UUID id, UUID poolId, List<Long> nodes, Timestamp start, Timestamp end) {}

    private final Queue<MinimalBooking> minimalBooked = new ConcurrentLinkedQueue<>();

    /**
     * Takes back what the minimal transactions booked (it keeps neither quota usage nor the calendar, which the
     * checks compare with the allocations): each window returned to its nodes' gaps as a cancellation does, then
     * the allocations and reservations deleted.
     */
    void undoMinimal() throws SQLException {
        try (Connection c = pool.getConnection()) {
            for (MinimalBooking b; (b = minimalBooked.poll()) != null; ) {
                try (PreparedStatement ps = named(
                        c,
                        AllocationRepository.RETURN_TO_GAPS,
                        window(b.start(), b.end())
                                .addValue("nodes", b.nodes().toArray(Long[]::new))
                                .addValue("pool", b.poolId()))) {
                    ps.execute();
                }
                update(c, "DELETE FROM allocation WHERE reservation_id = ?", b.id());
                update(c, "DELETE FROM reservation WHERE id = ?", b.id());
            }
            c.commit();
        }
    }

    /**
     * Bookings.preferredFreeNodes and NodeChoice, without the rack and gap preferences inside a block: the blocks eight,
     * then 32, 64 at a time until one holds the booking, else every candidate, freest blocks first.
     */
    private List<Long> preferredFreeNodes(
            Connection c, UUID poolId, Timestamp start, Timestamp end, int want, List<Long> tried) throws SQLException {
        List<String> names = blocks.get(poolId);
        if (names == null) {
            names = new ArrayList<>();
            try (PreparedStatement ps =
                            prepare(c, "SELECT DISTINCT ib_block FROM node WHERE pool_id = ? ORDER BY 1", poolId);
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
            blocks.put(poolId, names);
        }
        Map<String, List<Long>> searched = new LinkedHashMap<>();
        for (int from = 0, batch = 8; from < names.size(); from += batch, batch = Math.min(batch * 4, 64)) {
            Map<String, List<Long>> found = new LinkedHashMap<>();
            try (PreparedStatement ps = named(
                            c,
                            FreeNodeRepository.FREE_IN,
                            window(start, end)
                                    .addValue("pool", poolId)
                                    .addValue(
                                            "blocks",
                                            names.subList(from, Math.min(from + batch, names.size()))
                                                    .toArray(String[]::new))
                                    .addValue("driver", null)
                                    .addValue("excluded", tried.toArray(Long[]::new)));
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.computeIfAbsent(rs.getString(3), block -> new ArrayList<>())
                            .add(rs.getLong(1));
                }
            }
            for (List<Long> block : found.values()) {
                if (block.size() >= want) {
                    return block;
                }
            }
            searched.putAll(found);
        }
        return searched.values().stream()
                .sorted((x, y) -> y.size() - x.size())
                .flatMap(List::stream)
                .toList();
    }

    /** One booking; answers booked, conflict (409) or quota (422), rolling back all but the first. */
    private String book(Connection c, Requests.Request r) throws SQLException {
        Fleet.Tenant tenant = fleet.tenants().get(r.tenant());
        UUID poolId = fleet.poolIds().get(r.pool());
        UUID typeId = fleet.gpuTypeIds().get(r.pool());
        String key = UUID.randomUUID().toString();
        String hash = sha256(r.json());
        Timestamp start = Timestamp.from(r.start());
        Timestamp end = Timestamp.from(r.end());
        // Bookings.book: in the transaction the quota lock and the replay check
        query(c, "SELECT version FROM quota WHERE tenant_id = ? FOR UPDATE", tenant.id());
        query(c, "SELECT * FROM reservation WHERE tenant_id = ? AND idempotency_key = ?", tenant.id(), key);
        // Quotas.reserve
        query(c, "SELECT version FROM quota WHERE tenant_id = ? FOR UPDATE", tenant.id());
        int guaranteed;
        int max;
        boolean burst;
        try (PreparedStatement ps = c.prepareStatement("""
				SELECT p.*, g.code FROM quota_policy p JOIN gpu_type g ON g.id = p.gpu_type_id
				WHERE p.tenant_id = ? AND p.gpu_type_id = ?""")) {
            ps.setObject(1, tenant.id());
            ps.setObject(2, typeId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                guaranteed = rs.getInt("guaranteed_gpus");
                max = rs.getInt("max_gpus");
                burst = rs.getBoolean("burst");
            }
        }
        // QuotaRepository.usage: the level at the window's hour start, then the edges up to the window's end
        Timestamp hour = Timestamp.from(r.start().truncatedTo(ChronoUnit.HOURS));
        int level = 0;
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT gpus FROM quota_usage_level WHERE tenant_id = ? AND gpu_type_id = ? AND hour = ?")) {
            ps.setObject(1, tenant.id());
            ps.setObject(2, typeId);
            ps.setTimestamp(3, hour);
            try (ResultSet rs = ps.executeQuery()) {
                level = rs.next() ? rs.getInt(1) : 0;
            }
        }
        int atStart = level;
        TreeMap<Instant, Integer> usage = new TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
				SELECT at, delta FROM quota_usage_edge
				WHERE tenant_id = ? AND gpu_type_id = ? AND at > ? AND at < ? ORDER BY at""")) {
            ps.setObject(1, tenant.id());
            ps.setObject(2, typeId);
            ps.setTimestamp(3, hour);
            ps.setTimestamp(4, end);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Instant at = rs.getTimestamp(1).toInstant();
                    level += rs.getInt(2);
                    if (at.isAfter(r.start())) {
                        usage.put(at, level);
                    } else {
                        atStart = level;
                    }
                }
            }
        }
        List<int[]> split = new ArrayList<>();
        List<Instant[]> stretches = new ArrayList<>();
        if (!split(r, atStart, usage, guaranteed, max, burst, split, stretches)) {
            c.rollback();
            return "quota";
        }
        query(
                c,
                "SELECT * FROM rate_card WHERE gpu_type_id = ? AND effective_from <= ? ORDER BY effective_from DESC LIMIT 1",
                typeId,
                LocalDate.ofInstant(r.start(), ZoneOffset.UTC));
        UUID id = UUID.randomUUID();
        BigDecimal total = BigDecimal.ZERO;
        // QuotaRepository.insert: neighbours of one month with the same split stored as one row
        List<String> starts = new ArrayList<>();
        List<String> ends = new ArrayList<>();
        List<List<Integer>> classes = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        List<BigDecimal> amounts = new ArrayList<>();
        int[] previous = null;
        for (int i = 0; i < split.size(); i++) {
            int[] split3 = split.get(i);
            Instant from = stretches.get(i)[0];
            Instant to = stretches.get(i)[1];
            long minutes = Duration.between(from, to).toMinutes();
            BigDecimal amount = price("2.00", split3[0], minutes)
                    .add(price("1.50", split3[1], minutes))
                    .add(price("4.00", split3[2], minutes));
            total = total.add(amount);
            boolean sameMonth = previous != null
                    && YearMonth.from(Instant.parse(starts.getLast()).atOffset(ZoneOffset.UTC))
                            .equals(YearMonth.from(from.atOffset(ZoneOffset.UTC)));
            if (sameMonth && Arrays.equals(previous, split3)) {
                ends.set(ends.size() - 1, to.toString());
                amounts.set(amounts.size() - 1, amounts.getLast().add(amount));
                continue;
            }
            starts.add(from.toString());
            ends.add(to.toString());
            for (int k = 0; k < 3; k++) {
                classes.get(k).add(split3[k]);
            }
            amounts.add(amount);
            previous = split3;
        }
        update(
                c,
                INSERT_USAGE,
                id,
                tenant.id(),
                Fleet.PROJECT,
                typeId,
                "USD",
                new BigDecimal("2.0000"),
                new BigDecimal("1.5000"),
                new BigDecimal("4.0000"),
                c.createArrayOf("text", starts.toArray()),
                c.createArrayOf("text", ends.toArray()),
                c.createArrayOf("int", classes.get(0).toArray()),
                c.createArrayOf("int", classes.get(1).toArray()),
                c.createArrayOf("int", classes.get(2).toArray()),
                c.createArrayOf(
                        "text", amounts.stream().map(BigDecimal::toPlainString).toArray()));
        // NodeSecuring with FreeNodeRepository.lockFreeNodes: up to three rounds of searching blocks, locking with SKIP
        // LOCKED, re-reading the gaps
        List<Long> chosen = new ArrayList<>();
        List<String> hosts = new ArrayList<>();
        List<Long> tried = new ArrayList<>();
        for (int round = 0; round < 3 && chosen.size() < r.nodes(); round++) {
            int want = r.nodes() - chosen.size();
            List<Long> locked = new ArrayList<>();
            List<String> names = new ArrayList<>();
            List<Long> preferred = preferredFreeNodes(c, poolId, start, end, want, tried);
            try (PreparedStatement ps = named(
                            c,
                            FreeNodeRepository.LOCK_FIRST,
                            new MapSqlParameterSource("nodes", preferred.toArray(Long[]::new))
                                    .addValue("count", want));
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    locked.add(rs.getLong(1));
                    names.add(rs.getString(2));
                }
            }
            if (locked.isEmpty()) {
                break;
            }
            tried.addAll(locked);
            List<Long> free = new ArrayList<>();
            try (PreparedStatement ps = named(
                            c,
                            AllocationRepository.FREE_FOR,
                            window(start, end).addValue("nodes", locked.toArray(Long[]::new)));
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    free.add(rs.getLong(1));
                }
            }
            for (int i = 0; i < locked.size(); i++) {
                if (free.contains(locked.get(i))) {
                    chosen.add(locked.get(i));
                    hosts.add(names.get(i));
                }
            }
        }
        if (chosen.size() < r.nodes()) {
            c.rollback();
            return "conflict";
        }
        String cluster = "{\"orchestrator\":\"KUBERNETES\",\"cudaDriver\":null,\"sharedMemoryGi\":null,\"volumes\":[],"
                + "\"sshPublicKeys\":[]}";
        String quote = "{\"gpuType\":\"" + Settings.GPU_TYPES[r.pool()] + "\",\"currency\":\"USD\",\"total\":" + total
                + ",\"lines\":[{\"rateClass\":\"RESERVED\",\"gpuHours\":1.00,\"pricePerGpuHour\":2.0000,\"amount\":"
                + total
                + "}],\"preemptible\":false,\"budget\":[]}";
        Instant now = Instant.now();
        update(
                c,
                INSERT_RESERVATION,
                id,
                tenant.id(),
                tenant.slug(),
                tenant.projectId(),
                Fleet.PROJECT,
                poolId,
                Settings.POOLS[r.pool()],
                Settings.GPU_TYPES[r.pool()],
                r.gpus(),
                start,
                end,
                false,
                cluster,
                quote,
                c.createArrayOf("text", hosts.toArray(String[]::new)),
                0L,
                key,
                hash,
                Timestamp.from(now));
        Long[] nodes = chosen.toArray(Long[]::new);
        Map<Instant, Integer> hours = new TreeMap<>();
        Map<Instant, Integer> days = new TreeMap<>();
        try (PreparedStatement ps = named(
                        c,
                        AllocationRepository.TAKE_FROM_GAPS,
                        window(start, end).addValue("nodes", nodes));
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                Timestamp from = rs.getTimestamp(2);
                Timestamp to = rs.getTimestamp(3);
                flipping(r, from, to, ChronoUnit.HOURS).forEach(h -> hours.merge(h, 1, Integer::sum));
                flipping(r, from, to, ChronoUnit.DAYS).forEach(d -> days.merge(d, 1, Integer::sum));
            }
        }
        allocate(c, id, poolId, nodes, start, end);
        int stripe = ThreadLocalRandom.current().nextInt(8);
        // CapacityCalendar: the same statement announces the counts to the live calendars (LiveCalendar)
        query(
                c,
                CALENDAR,
                poolId,
                stripe,
                c.createArrayOf(
                        "text", hours.keySet().stream().map(Instant::toString).toArray()),
                c.createArrayOf("int", hours.values().toArray()),
                poolId,
                stripe,
                c.createArrayOf(
                        "text", days.keySet().stream().map(Instant::toString).toArray()),
                c.createArrayOf("int", days.values().toArray()),
                "allot_calendar",
                poolId.toString(),
                counts(hours, 3600) + ";" + counts(days, 86_400),
                ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE));
        String after = "{\"id\":\"" + id + "\",\"tenant\":\"" + tenant.slug() + "\",\"project\":\"main\",\"pool\":\""
                + Settings.POOLS[r.pool()] + "\",\"gpus\":" + r.gpus() + ",\"startsAt\":\"" + r.start()
                + "\",\"endsAt\":\""
                + r.end() + "\",\"nodes\":"
                + hosts.stream().map(h -> "\"" + h + "\"").toList() + ",\"cluster\":" + cluster
                + ",\"quote\":" + quote + "}";
        update(
                c,
                AUDIT,
                "bench-jdbc",
                tenant.slug(),
                "reservation.created",
                "reservation",
                id.toString(),
                null,
                null,
                after);
        query(c, "SELECT pg_notify(?, ?)", "allot_capacity", Settings.POOLS[r.pool()]);
        String event = "{\"reservationId\":\"" + id + "\",\"tenant\":\"" + tenant.slug()
                + "\",\"project\":\"main\",\"pool\":\""
                + Settings.POOLS[r.pool()] + "\",\"gpus\":" + r.gpus() + ",\"startsAt\":\"" + r.start()
                + "\",\"endsAt\":\""
                + r.end() + "\",\"nodes\":"
                + hosts.stream().map(h -> "\"" + h + "\"").toList() + "}";
        for (String listener : LISTENERS) {
            update(
                    c,
                    PUBLICATION,
                    UUID.randomUUID(),
                    "dev.allot.booking.events.ReservationConfirmed",
                    listener,
                    Timestamp.from(now),
                    event,
                    "PUBLISHED",
                    1,
                    null);
        }
        return "booked";
    }

    /** QuotaPolicy.split: cuts at usage edges and month starts; false when the cap refuses (no burst). */
    private static boolean split(
            Requests.Request r,
            int atStart,
            TreeMap<Instant, Integer> usage,
            int guaranteed,
            int max,
            boolean burst,
            List<int[]> split,
            List<Instant[]> stretches) {
        TreeSet<Instant> cuts = new TreeSet<>(List.of(r.start(), r.end()));
        cuts.addAll(usage.headMap(r.end(), false).keySet());
        YearMonth month = YearMonth.from(r.start().atOffset(ZoneOffset.UTC)).plusMonths(1);
        for (Instant s = month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
                s.isBefore(r.end());
                month = month.plusMonths(1), s = month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC)) {
            cuts.add(s);
        }
        Instant from = cuts.pollFirst();
        for (Instant to : cuts) {
            Map.Entry<Instant, Integer> step = usage.floorEntry(from);
            int used = step == null ? atStart : step.getValue();
            int gpus = r.gpus();
            int reserved = Math.min(gpus, Math.max(0, guaranteed - used));
            int borrowed = Math.min(gpus - reserved, Math.max(0, max - Math.max(used, guaranteed)));
            int onDemand = gpus - reserved - borrowed;
            if (onDemand > 0 && !burst) {
                return false;
            }
            split.add(new int[] {reserved, borrowed, onDemand});
            stretches.add(new Instant[] {from, to});
            from = to;
        }
        return true;
    }

    /** CapacityCalendar / Hours.flipping: buckets touching the window that the gap held whole. */
    private static List<Instant> flipping(Requests.Request r, Timestamp gapFrom, Timestamp gapTo, ChronoUnit unit) {
        List<Instant> buckets = new ArrayList<>();
        Duration length = unit.getDuration();
        for (Instant b = r.start().truncatedTo(unit); b.isBefore(r.end()); b = b.plus(length)) {
            if ((gapFrom == null || !b.isBefore(gapFrom.toInstant()))
                    && (gapTo == null || !b.plus(length).isAfter(gapTo.toInstant()))) {
                buckets.add(b);
            }
        }
        return buckets;
    }

    /** CalendarDelta.counts: {@code <epoch hour or day>:<nodes>,...}. */
    private static String counts(Map<Instant, Integer> buckets, long unit) {
        StringBuilder text = new StringBuilder();
        buckets.forEach((bucket, n) -> text.append(text.isEmpty() ? "" : ",")
                .append(bucket.getEpochSecond() / unit)
                .append(':')
                .append(n));
        return text.toString();
    }

    private static BigDecimal price(String perHour, int gpus, long minutes) {
        return new BigDecimal(perHour)
                .multiply(BigDecimal.valueOf(gpus * minutes))
                .divide(BigDecimal.valueOf(60), 4, RoundingMode.HALF_EVEN);
    }

    private static void query(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                // read and drop, as the application maps its rows
            }
        }
    }

    private static void update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params)) {
            ps.executeUpdate();
        }
    }

    private static void allocate(Connection c, UUID id, UUID poolId, Long[] nodes, Timestamp start, Timestamp end)
            throws SQLException {
        try (PreparedStatement ps = named(
                c,
                AllocationRepository.ALLOCATE,
                window(start, end)
                        .addValue("reservation", id)
                        .addValue("nodes", nodes)
                        .addValue("pool", poolId))) {
            ps.executeUpdate();
        }
    }

    private static MapSqlParameterSource window(Timestamp start, Timestamp end) {
        return new MapSqlParameterSource("start", start).addValue("end", end);
    }

    /**
     * One of the application's own statements ({@code AllocationRepository.TAKE_FROM_GAPS}...), its named parameters
     * turned into positional ones and bound as {@code JdbcClient} binds them: the same text reaches PostgreSQL.
     */
    private static PreparedStatement named(Connection c, String sql, MapSqlParameterSource params) throws SQLException {
        ParsedSql parsed = NamedParameterUtils.parseSqlStatement(sql);
        PreparedStatement ps = c.prepareStatement(NamedParameterUtils.substituteNamedParameters(parsed, params));
        Object[] values = NamedParameterUtils.buildValueArray(parsed, params, null);
        for (int i = 0; i < values.length; i++) {
            StatementCreatorUtils.setParameterValue(ps, i + 1, SqlTypeValue.TYPE_UNKNOWN, values[i]);
        }
        return ps;
    }

    private static PreparedStatement prepare(Connection c, String sql, Object... params) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        for (int i = 0; i < params.length; i++) {
            ps.setObject(i + 1, params[i]);
        }
        return ps;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public void close() {
        pool.close();
    }
}
