package dev.allot.quota;

import dev.allot.quota.policies.QuotaWindow;
import dev.allot.shared.SearchQuery;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.ZoneId;
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
}
