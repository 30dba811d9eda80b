package dev.allot.quota;

import dev.allot.quota.policies.ProjectQuotaPolicy;
import dev.allot.quota.policies.QuotaWindow;
import dev.allot.quota.pricing.BookedSegment;
import dev.allot.quota.pricing.RateCard;
import dev.allot.quota.pricing.RateClass;
import dev.allot.shared.SearchQuery;
import dev.allot.shared.TimeWindow;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
class QuotaRepository {

    private static final String RANGE = "tstzrange(?, ?, '[)')";

    private final JdbcClient jdbc;

    QuotaRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Locks the tenant's quota row for the rest of the transaction; empty when the tenant has no quota. */
    Optional<Long> lock(UUID tenantId) {
        return jdbc.sql("SELECT version FROM quota WHERE tenant_id = ? FOR UPDATE")
                .param(tenantId)
                .query(Long.class)
                .optional();
    }

    /** Locks the row, creating it first if the tenant has none. */
    long lockOrCreate(UUID tenantId) {
        jdbc.sql("INSERT INTO quota (tenant_id) VALUES (?) ON CONFLICT DO NOTHING")
                .param(tenantId)
                .update();
        return lock(tenantId).orElseThrow();
    }

    /** Serializes the changes of one GPU type's guarantees until the transaction ends. */
    void lockGuarantees(UUID gpuTypeId) {
        jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended('quota-guarantees:' || CAST(? AS text), 0))")
                .param(gpuTypeId)
                .query()
                .singleValue();
    }

    /** A tenant that lends less than its guarantee of a GPU type: how much it holds back from borrowers. */
    record HeldBack(UUID tenantId, int guaranteedGpus, int heldBackGpus) {}

    /** The tenants other than {@code tenantId} that hold some of their guarantee of the type back from borrowers. */
    List<HeldBack> heldBack(UUID gpuTypeId, UUID tenantId) {
        return jdbc.sql("""
				SELECT tenant_id, guaranteed_gpus, guaranteed_gpus - lendable_gpus FROM quota_policy
				WHERE gpu_type_id = ? AND tenant_id <> ? AND lendable_gpus < guaranteed_gpus""")
                .params(gpuTypeId, tenantId)
                .query((rs, n) -> new HeldBack(rs.getObject(1, UUID.class), rs.getInt(2), rs.getInt(3)))
                .list();
    }

    /** The tenants other than {@code tenantId} with a guarantee of the type, all of it counted (for the headroom). */
    List<HeldBack> guaranteesOfOthers(UUID gpuTypeId, UUID tenantId) {
        return jdbc.sql("""
				SELECT tenant_id, guaranteed_gpus, guaranteed_gpus FROM quota_policy
				WHERE gpu_type_id = ? AND tenant_id <> ? AND guaranteed_gpus > 0""")
                .params(gpuTypeId, tenantId)
                .query((rs, n) -> new HeldBack(rs.getObject(1, UUID.class), rs.getInt(2), rs.getInt(3)))
                .list();
    }

    /** Per tenant id, its guarantee of the GPU type (those with one only). */
    Map<UUID, Integer> guarantees(UUID gpuTypeId) {
        Map<UUID, Integer> guarantees = new HashMap<>();
        jdbc.sql("SELECT tenant_id, guaranteed_gpus FROM quota_policy WHERE gpu_type_id = ? AND guaranteed_gpus > 0")
                .param(gpuTypeId)
                .query((rs, n) -> guarantees.put(rs.getObject(1, UUID.class), rs.getInt(2)))
                .list();
        return guarantees;
    }

    /** Per tenant slug, its guarantee of the GPU type, the tenant {@code except} left out (those with one only). */
    Map<String, Integer> guaranteesByTenant(UUID gpuTypeId, UUID except) {
        Map<String, Integer> guarantees = new TreeMap<>();
        jdbc.sql("""
				SELECT t.slug, p.guaranteed_gpus FROM quota_policy p JOIN tenant t ON t.id = p.tenant_id
				WHERE p.gpu_type_id = ? AND p.tenant_id <> ? AND p.guaranteed_gpus > 0""")
                .params(gpuTypeId, except)
                .query((rs, n) -> guarantees.put(rs.getString(1), rs.getInt(2)))
                .list();
        return guarantees;
    }

    /** Per GPU type code, the sum of the tenants' guarantees (types with some guarantee only). */
    Map<String, Integer> guaranteesByType() {
        Map<String, Integer> sums = new TreeMap<>();
        jdbc.sql("""
				SELECT g.code, sum(p.guaranteed_gpus) FROM quota_policy p JOIN gpu_type g ON g.id = p.gpu_type_id
				GROUP BY g.code HAVING sum(p.guaranteed_gpus) > 0""").query((rs, n) -> sums.put(rs.getString(1), rs.getInt(2))).list();
        return sums;
    }

    /** The tenant's storage quota in GiB; empty when unlimited. */
    Optional<Integer> storageGi(UUID tenantId) {
        return jdbc.sql("SELECT storage_gi FROM quota WHERE tenant_id = ? AND storage_gi IS NOT NULL")
                .param(tenantId)
                .query(Integer.class)
                .optional();
    }

    void setStorageGi(UUID tenantId, @Nullable Integer storageGi) {
        jdbc.sql("UPDATE quota SET storage_gi = ? WHERE tenant_id = ?")
                .params(storageGi, tenantId)
                .update();
    }

    long version(UUID tenantId) {
        return jdbc.sql("SELECT version FROM quota WHERE tenant_id = ?")
                .param(tenantId)
                .query(Long.class)
                .optional()
                .orElse(0L);
    }

    void replacePolicies(UUID tenantId, List<QuotaPolicy> policies, Map<String, UUID> gpuTypeIds, long version) {
        jdbc.sql("DELETE FROM quota_policy WHERE tenant_id = ?").param(tenantId).update();
        insertPolicies("quota_policy", "tenant_id", tenantId, policies, gpuTypeIds);
        jdbc.sql("UPDATE quota SET version = ?, updated_at = now() WHERE tenant_id = ?")
                .params(version, tenantId)
                .update();
    }

    /** The policies a quota request asks for, stored as a tenant's are. */
    void insertRequestPolicies(UUID requestId, List<QuotaPolicy> policies, Map<String, UUID> gpuTypeIds) {
        insertPolicies("quota_request_policy", "request_id", requestId, policies, gpuTypeIds);
    }

    List<QuotaPolicy> requestPolicies(UUID requestId) {
        return jdbc.sql("""
				SELECT p.*, g.code FROM quota_request_policy p JOIN gpu_type g ON g.id = p.gpu_type_id
				WHERE p.request_id = ? ORDER BY g.code""").param(requestId).query(QuotaRepository::policy).list();
    }

    /** {@code table}: quota_policy or quota_request_policy; {@code owner}: its key column (both literals here). */
    private void insertPolicies(
            String table, String owner, UUID ownerId, List<QuotaPolicy> policies, Map<String, UUID> gpuTypeIds) {
        for (QuotaPolicy policy : policies) {
            jdbc.sql("INSERT INTO " + table + " (" + owner + """
					, gpu_type_id, guaranteed_gpus, max_gpus, burst,
					    max_window_seconds, max_advance_seconds, monthly_budget, priority, lendable_gpus, zone, windows,
					    approval_above_gpu_hours, approval_beyond_guarantee)
					VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")
                    .params(
                            ownerId,
                            gpuTypeIds.get(policy.gpuType()),
                            policy.guaranteedGpus(),
                            policy.maxGpus(),
                            policy.burst(),
                            policy.maxWindow().toSeconds(),
                            policy.maxAdvance().toSeconds(),
                            policy.monthlyBudget(),
                            policy.priority().name(),
                            policy.lendableGpus(),
                            policy.zone().getId(),
                            policy.windows().stream().map(QuotaWindow::stored).toArray(String[]::new),
                            policy.approval() == null ? null : policy.approval().aboveGpuHours(),
                            policy.approval() != null && policy.approval().beyondGuarantee())
                    .update();
        }
    }

    /**
     * One row per tenant and GPU type it has a quota for, and one for each tenant with none: those whose tenant slug,
     * name or GPU type holds the search text, in the order asked.
     */
    List<Quotas.QuotaListing> searchQuotas(SearchQuery query) {
        List<Object> params = new ArrayList<>(searchParams(query));
        params.add(query.page().size());
        params.add(query.page().offset());
        return jdbc.sql("SELECT t.id AS tenant_id_of_row, t.slug, t.display_name, p.*, g.code" + QUOTA_ROWS
                        + search(query) + query.orderBy() + " LIMIT ? OFFSET ?")
                .params(params)
                .query((rs, n) -> new Quotas.QuotaListing(
                        rs.getObject("tenant_id_of_row", UUID.class),
                        rs.getString("slug"),
                        rs.getString("display_name"),
                        rs.getString("code") == null ? null : policy(rs, n)))
                .list();
    }

    long countQuotas(SearchQuery query) {
        return jdbc.sql("SELECT count(*)" + QUOTA_ROWS + search(query))
                .params(searchParams(query))
                .query(Long.class)
                .single();
    }

    private static final String QUOTA_ROWS = " FROM tenant t LEFT JOIN quota_policy p ON p.tenant_id = t.id"
            + " LEFT JOIN gpu_type g ON g.id = p.gpu_type_id";

    private static String search(SearchQuery query) {
        return query.pattern() == null
                ? ""
                : " WHERE (t.slug ILIKE ? ESCAPE '\\' OR t.display_name ILIKE ? ESCAPE '\\' OR g.code ILIKE ? ESCAPE '\\')";
    }

    private static List<Object> searchParams(SearchQuery query) {
        String pattern = query.pattern();
        return pattern == null ? List.of() : List.of(pattern, pattern, pattern);
    }

    List<QuotaPolicy> policies(UUID tenantId) {
        return jdbc.sql("""
				SELECT p.*, g.code FROM quota_policy p JOIN gpu_type g ON g.id = p.gpu_type_id
				WHERE p.tenant_id = ? ORDER BY g.code""").param(tenantId).query(QuotaRepository::policy).list();
    }

    Optional<QuotaPolicy> policy(UUID tenantId, UUID gpuTypeId) {
        return jdbc.sql("""
				SELECT p.*, g.code FROM quota_policy p JOIN gpu_type g ON g.id = p.gpu_type_id
				WHERE p.tenant_id = ? AND p.gpu_type_id = ?""")
                .params(tenantId, gpuTypeId)
                .query(QuotaRepository::policy)
                .optional();
    }

    /**
     * The tenant's usage of the type over the window, from the maintained state (V60): the level at the hour
     * start of the window's start and the edges from there to the window's end. Two index range reads whose
     * length depends on the window, not on how many bookings the tenant ever made.
     */
    UsageSteps usage(UUID tenantId, UUID gpuTypeId, TimeWindow window) {
        Timestamp hour = ts(UsageSteps.hourOf(window.start()));
        int level = jdbc.sql("SELECT gpus FROM quota_usage_level WHERE tenant_id = ? AND gpu_type_id = ? AND hour = ?")
                .params(tenantId, gpuTypeId, hour)
                .query(Integer.class)
                .optional()
                .orElse(0);
        List<UsageSteps.Edge> edges = jdbc.sql("""
				SELECT at, delta FROM quota_usage_edge
				WHERE tenant_id = ? AND gpu_type_id = ? AND at > ? AND at < ? ORDER BY at""")
                .params(tenantId, gpuTypeId, hour, ts(window.end()))
                .query((rs, n) -> new UsageSteps.Edge(rs.getTimestamp(1).toInstant(), rs.getInt(2)))
                .list();
        return UsageSteps.fromEdges(level, edges, window);
    }

    /** What the tenant has booked of the type in the calendar month (from the maintained monthly counters). */
    BigDecimal spent(UUID tenantId, UUID gpuTypeId, YearMonth month) {
        return jdbc.sql("SELECT coalesce(sum(amount), 0) FROM quota_spend WHERE tenant_id = ? AND gpu_type_id = ? "
                        + "AND month = ?")
                .params(tenantId, gpuTypeId, ts(QuotaPolicy.monthStart(month)))
                .query(BigDecimal.class)
                .single();
    }

    /** What a project's live bookings of the GPU type cost in {@code month}. */
    BigDecimal spentByProject(UUID tenantId, String project, UUID gpuTypeId, YearMonth month) {
        return jdbc.sql("SELECT coalesce(sum(amount), 0) FROM quota_spend WHERE tenant_id = ? AND project = ? "
                        + "AND gpu_type_id = ? AND month = ?")
                .params(tenantId, project, gpuTypeId, ts(QuotaPolicy.monthStart(month)))
                .query(BigDecimal.class)
                .single();
    }

    /** A project's live holdings of the GPU type overlapping the window: each its interval and GPUs. */
    List<Held> heldByProject(UUID tenantId, String project, UUID gpuTypeId, Instant from, Instant to) {
        return jdbc.sql("""
				SELECT lower(during), upper(during), reserved_gpus + borrowed_gpus + on_demand_gpus
				FROM quota_usage WHERE tenant_id = ? AND project = ? AND gpu_type_id = ? AND during && tstzrange(?, ?)""")
                .params(tenantId, project, gpuTypeId, ts(from), ts(to))
                .query((rs, n) -> new Held(
                        rs.getTimestamp(1).toInstant(), rs.getTimestamp(2).toInstant(), rs.getInt(3)))
                .list();
    }

    record Held(Instant from, Instant to, int gpus) {}

    List<ProjectQuotaPolicy> projectPolicies(UUID tenantId, String project) {
        return jdbc.sql("""
				SELECT g.code, p.max_gpus, p.monthly_budget FROM project_quota_policy p
				JOIN gpu_type g ON g.id = p.gpu_type_id WHERE p.tenant_id = ? AND p.project = ? ORDER BY g.code""")
                .params(tenantId, project)
                .query((rs, n) ->
                        new ProjectQuotaPolicy(rs.getString(1), (Integer) rs.getObject(2), rs.getBigDecimal(3)))
                .list();
    }

    /** A project's cap on one GPU type, named by its project. */
    record ProjectCap(String project, ProjectQuotaPolicy policy) {}

    /** Every project's cap of the tenant on the GPU type, by project. */
    List<ProjectCap> projectCaps(UUID tenantId, UUID gpuTypeId) {
        return jdbc.sql("""
				SELECT p.project, g.code, p.max_gpus, p.monthly_budget FROM project_quota_policy p
				JOIN gpu_type g ON g.id = p.gpu_type_id WHERE p.tenant_id = ? AND p.gpu_type_id = ? ORDER BY p.project""")
                .params(tenantId, gpuTypeId)
                .query((rs, n) -> new ProjectCap(
                        rs.getString(1),
                        new ProjectQuotaPolicy(rs.getString(2), (Integer) rs.getObject(3), rs.getBigDecimal(4))))
                .list();
    }

    void replaceProjectPolicies(UUID tenantId, String project, Map<UUID, ProjectQuotaPolicy> byType) {
        jdbc.sql("DELETE FROM project_quota_policy WHERE tenant_id = ? AND project = ?")
                .params(tenantId, project)
                .update();
        byType.forEach((typeId, policy) -> jdbc.sql("""
				INSERT INTO project_quota_policy (tenant_id, project, gpu_type_id, max_gpus, monthly_budget)
				VALUES (?, ?, ?, ?, ?)""")
                .params(tenantId, project, typeId, policy.maxGpus(), policy.monthlyBudget())
                .update());
    }

    /** What a project's live bookings cost in {@code month}, in {@code currency}, over all GPU types. */
    BigDecimal spentByProject(UUID tenantId, String project, YearMonth month, String currency) {
        return jdbc.sql("SELECT coalesce(sum(amount), 0) FROM quota_spend WHERE tenant_id = ? AND project = ? "
                        + "AND month = ? AND currency = ?")
                .params(tenantId, project, ts(QuotaPolicy.monthStart(month)), currency)
                .query(BigDecimal.class)
                .single();
    }

    /**
     * Stores a booking's segments in one statement, neighbours of one month with the same split into rate classes
     * merged into one row whose amount is the sum of theirs (so the stored amounts add up to the quote exactly). A
     * booking over a busy tenant's calendar splits wherever the tenant's usage changes, dozens of times at fleet
     * scale; stored unmerged, those pieces would multiply the rows every later booking of the tenant reads.
     */
    void insert(
            UUID reservationId, UUID tenantId, @Nullable String project, UUID gpuTypeId, List<PricedSegment> priced) {
        if (priced.isEmpty()) {
            return;
        }
        RateCard card = priced.getFirst().card();
        List<Merged> segments = merged(priced);
        jdbc.sql("""
				INSERT INTO quota_usage (reservation_id, tenant_id, project, gpu_type_id, during, reserved_gpus,
				    borrowed_gpus, on_demand_gpus, currency, price_reserved, price_borrowed, price_on_demand, amount)
				SELECT :reservation, :tenant, :project, :gpuType, tstzrange(s, e, '[)'), r, b, o, :currency, :reserved, :borrowed,
				    :onDemand, a
				FROM unnest(CAST(CAST(:starts AS text[]) AS timestamptz[]), CAST(CAST(:ends AS text[]) AS timestamptz[]),
				            CAST(:reservedGpus AS int[]), CAST(:borrowedGpus AS int[]), CAST(:onDemandGpus AS int[]),
				            CAST(CAST(:amounts AS text[]) AS numeric[])) WITH ORDINALITY AS x(s, e, r, b, o, a, i)
				ORDER BY i""")
                .param("reservation", reservationId)
                .param("tenant", tenantId)
                .param("project", project)
                .param("gpuType", gpuTypeId)
                .param("currency", card.currency())
                .param("reserved", card.price(RateClass.RESERVED))
                .param("borrowed", card.price(RateClass.BORROWED))
                .param("onDemand", card.price(RateClass.ON_DEMAND))
                .param(
                        "starts",
                        segments.stream()
                                .map(m -> m.segment().during().start().toString())
                                .toArray(String[]::new))
                .param(
                        "ends",
                        segments.stream()
                                .map(m -> m.segment().during().end().toString())
                                .toArray(String[]::new))
                .param(
                        "reservedGpus",
                        segments.stream().map(m -> m.segment().reserved()).toArray(Integer[]::new))
                .param(
                        "borrowedGpus",
                        segments.stream().map(m -> m.segment().borrowed()).toArray(Integer[]::new))
                .param(
                        "onDemandGpus",
                        segments.stream().map(m -> m.segment().onDemand()).toArray(Integer[]::new))
                .param(
                        "amounts",
                        segments.stream().map(m -> m.amount().toPlainString()).toArray(String[]::new))
                .update();
    }

    private record Merged(Segment segment, BigDecimal amount) {}

    private static List<Merged> merged(List<PricedSegment> priced) {
        List<Merged> merged = new ArrayList<>();
        for (PricedSegment p : priced) {
            Segment s = p.segment();
            Merged last = merged.isEmpty() ? null : merged.getLast();
            if (last != null
                    && last.segment().during().end().equals(s.during().start())
                    && last.segment().reserved() == s.reserved()
                    && last.segment().borrowed() == s.borrowed()
                    && last.segment().onDemand() == s.onDemand()
                    && month(last.segment()).equals(month(s))) {
                merged.set(
                        merged.size() - 1,
                        new Merged(
                                new Segment(
                                        new TimeWindow(
                                                last.segment().during().start(),
                                                s.during().end()),
                                        s.reserved(),
                                        s.borrowed(),
                                        s.onDemand()),
                                last.amount().add(p.total())));
            } else {
                merged.add(new Merged(s, p.total()));
            }
        }
        return merged;
    }

    private static YearMonth month(Segment s) {
        return YearMonth.from(s.during().start().atOffset(ZoneOffset.UTC));
    }

    /** The stored segment of the reservation containing the instant (to be cut there), if any. */
    Optional<Stored> segmentAt(UUID reservationId, Instant at) {
        return jdbc.sql("""
				SELECT u.*, lower(u.during) AS s, upper(u.during) AS e, g.code
				FROM quota_usage u JOIN gpu_type g ON g.id = u.gpu_type_id WHERE reservation_id = ? AND lower(during) < ? AND upper(during) > ?""")
                .params(reservationId, ts(at), ts(at))
                .query((rs, n) -> new Stored(rs.getLong("id"), segment(rs)))
                .optional();
    }

    List<BookedSegment> segmentsOf(UUID reservationId) {
        return jdbc.sql("""
				SELECT lower(during) AS s, upper(during) AS e, reserved_gpus, borrowed_gpus, on_demand_gpus, currency, amount
				FROM quota_usage WHERE reservation_id = ? ORDER BY lower(during)""")
                .param(reservationId)
                .query((rs, n) -> new BookedSegment(
                        new TimeWindow(
                                rs.getTimestamp("s").toInstant(),
                                rs.getTimestamp("e").toInstant()),
                        rs.getInt("reserved_gpus"),
                        rs.getInt("borrowed_gpus"),
                        rs.getInt("on_demand_gpus"),
                        rs.getString("currency"),
                        rs.getBigDecimal("amount")))
                .list();
    }

    record Stored(long id, PricedSegment segment) {}

    void deleteFrom(UUID reservationId, Instant from) {
        jdbc.sql("DELETE FROM quota_usage WHERE reservation_id = ? AND lower(during) >= ?")
                .params(reservationId, ts(from))
                .update();
    }

    void shorten(long id, PricedSegment segment) {
        jdbc.sql("UPDATE quota_usage SET during = " + RANGE + ", amount = ? WHERE id = ?")
                .params(
                        ts(segment.segment().during().start()),
                        ts(segment.segment().during().end()),
                        segment.total(),
                        id)
                .update();
    }

    Optional<RateCard> rateCardAt(UUID gpuTypeId, String gpuType, LocalDate day) {
        return jdbc.sql("SELECT * FROM rate_card WHERE gpu_type_id = ? AND effective_from <= ? "
                        + "ORDER BY effective_from DESC LIMIT 1")
                .params(gpuTypeId, day)
                .query((rs, n) -> rateCard(rs, gpuType))
                .optional();
    }

    List<RateCard> rateCards(UUID gpuTypeId, String gpuType) {
        return jdbc.sql("SELECT * FROM rate_card WHERE gpu_type_id = ? ORDER BY effective_from")
                .param(gpuTypeId)
                .query((rs, n) -> rateCard(rs, gpuType))
                .list();
    }

    void upsert(UUID gpuTypeId, RateCard card) {
        jdbc.sql("""
				INSERT INTO rate_card (gpu_type_id, effective_from, currency, reserved, borrowed, on_demand,
				    storage_gi_month)
				VALUES (?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (gpu_type_id, effective_from) DO UPDATE SET currency = excluded.currency,
				    reserved = excluded.reserved, borrowed = excluded.borrowed, on_demand = excluded.on_demand,
				    storage_gi_month = excluded.storage_gi_month""")
                .params(
                        gpuTypeId,
                        card.effectiveFrom(),
                        card.currency(),
                        card.price(RateClass.RESERVED),
                        card.price(RateClass.BORROWED),
                        card.price(RateClass.ON_DEMAND),
                        card.storagePerGiMonth())
                .update();
    }

    private static Timestamp ts(Instant instant) {
        return Timestamp.from(instant);
    }

    private static QuotaPolicy policy(ResultSet rs, int row) throws SQLException {
        List<QuotaWindow> windows = new ArrayList<>();
        for (String stored : (String[]) rs.getArray("windows").getArray()) {
            windows.add(QuotaWindow.ofText(stored));
        }
        return new QuotaPolicy(
                rs.getString("code"),
                rs.getInt("guaranteed_gpus"),
                rs.getInt("max_gpus"),
                rs.getBoolean("burst"),
                Duration.ofSeconds(rs.getLong("max_window_seconds")),
                Duration.ofSeconds(rs.getLong("max_advance_seconds")),
                rs.getBigDecimal("monthly_budget"),
                Priority.valueOf(rs.getString("priority")),
                rs.getObject("lendable_gpus") == null ? rs.getInt("guaranteed_gpus") : rs.getInt("lendable_gpus"),
                ZoneId.of(rs.getString("zone")),
                windows,
                approval(rs));
    }

    private static QuotaPolicy.@Nullable Approval approval(ResultSet rs) throws SQLException {
        Integer above = (Integer) rs.getObject("approval_above_gpu_hours");
        boolean beyond = rs.getBoolean("approval_beyond_guarantee");
        return above == null && !beyond ? null : new QuotaPolicy.Approval(above, beyond);
    }

    private static RateCard rateCard(ResultSet rs, String gpuType) throws SQLException {
        return new RateCard(
                gpuType,
                rs.getObject("effective_from", LocalDate.class),
                rs.getString("currency"),
                Map.of(
                        RateClass.RESERVED,
                        rs.getBigDecimal("reserved"),
                        RateClass.BORROWED,
                        rs.getBigDecimal("borrowed"),
                        RateClass.ON_DEMAND,
                        rs.getBigDecimal("on_demand")),
                rs.getBigDecimal("storage_gi_month"));
    }

    private static PricedSegment segment(ResultSet rs) throws SQLException {
        TimeWindow during = new TimeWindow(
                rs.getTimestamp("s").toInstant(), rs.getTimestamp("e").toInstant());
        Segment segment = new Segment(
                during, rs.getInt("reserved_gpus"), rs.getInt("borrowed_gpus"), rs.getInt("on_demand_gpus"));
        // Only the prices matter for repricing; the card's date is not kept with the usage.
        RateCard card = new RateCard(
                rs.getString("code"),
                LocalDate.EPOCH,
                rs.getString("currency"),
                Map.of(
                        RateClass.RESERVED,
                        rs.getBigDecimal("price_reserved"),
                        RateClass.BORROWED,
                        rs.getBigDecimal("price_borrowed"),
                        RateClass.ON_DEMAND,
                        rs.getBigDecimal("price_on_demand")));
        return new PricedSegment(segment, card);
    }
}
