package dev.allot.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The pool the sharing scenario books on ({@link Sharing}), of a GPU type of its own so that the plain pools, their
 * tenants and their guarantee sums stay as they were: guaranteed tenants whose guarantees add up to the pool (their
 * {@code maxGpus} equal to the guarantee, so all they book is {@code RESERVED} and never preemptible), and borrowers
 * without a guarantee whose ceiling is the whole pool (all they book is {@code BORROWED}, so preemptible), of the
 * lowest priority. Written by SQL like the rest of the fleet; the guarantees are kept within the pool's capacity
 * here, since SQL passes by the check the quota API makes.
 */
record SharedPool(
        UUID gpuTypeId,
        UUID poolId,
        int nodes,
        int guaranteeGpus,
        List<Fleet.Tenant> guaranteed,
        List<Fleet.Tenant> borrowers) {

    static final String POOL = "gh200-share";

    static final String GPU_TYPE = "GH200";

    /** The guaranteed tenants' priorities, in turn: any of them may reclaim from the borrowers. */
    private static final String[] PRIORITIES = {"PRODUCTION_INFERENCE", "PRODUCTION_FINE_TUNE", "TRAINING"};

    static SharedPool create(Connection c, Settings settings) throws SQLException {
        UUID type = UUID.randomUUID();
        UUID pool = UUID.randomUUID();
        int nodes = settings.sharingNodes();
        update(
                c,
                "INSERT INTO gpu_type (id, code, memory_gb, interconnect) VALUES (?, ?, 96, 'NVLINK')",
                type,
                GPU_TYPE);
        update(
                c,
                "INSERT INTO rate_card (gpu_type_id, effective_from, currency, reserved, borrowed, on_demand) "
                        + "VALUES (?, DATE '2020-01-01', 'USD', 2.50, 1.25, 5.00)",
                type);
        update(
                c,
                "INSERT INTO pool (id, name, gpu_type_id, gpus_per_node, region) VALUES (?, ?, ?, ?, 'bench-1')",
                pool,
                POOL,
                type,
                Settings.GPUS_PER_NODE);
        try (Copy rows = new Copy(c, "node", "hostname, pool_id, rack, ib_block, cuda_drivers, state")) {
            for (int n = 0; n < nodes; n++) {
                int block = n / Fleet.BLOCK;
                rows.row(
                        POOL + "-n%05d".formatted(n),
                        pool,
                        "rack-" + (block * 2 + (n % Fleet.BLOCK) * 2 / Fleet.BLOCK),
                        Fleet.block(n),
                        "{550.54,560.35}",
                        "AVAILABLE");
            }
        }
        int each = settings.sharingTenants();
        int guarantee = nodes / each * Settings.GPUS_PER_NODE;
        List<Fleet.Tenant> guaranteed = new ArrayList<>();
        List<Fleet.Tenant> borrowers = new ArrayList<>();
        for (int t = 0; t < 2 * each; t++) {
            boolean borrower = t >= each;
            int index = borrower ? t - each : t;
            Fleet.Tenant tenant = new Fleet.Tenant(
                    index,
                    UUID.randomUUID(),
                    (borrower ? "share-borrower-%02d" : "share-guaranteed-%02d").formatted(index + 1),
                    UUID.randomUUID(),
                    false);
            update(
                    c,
                    "INSERT INTO tenant (id, slug, display_name, status) VALUES (?, ?, ?, 'ACTIVE')",
                    tenant.id(),
                    tenant.slug(),
                    "Bench sharing tenant " + tenant.slug());
            update(
                    c,
                    "INSERT INTO project (id, tenant_id, slug, display_name) VALUES (?, ?, ?, 'Main')",
                    tenant.projectId(),
                    tenant.id(),
                    Fleet.PROJECT);
            update(c, "INSERT INTO quota (tenant_id) VALUES (?)", tenant.id());
            update(
                    c,
                    "INSERT INTO quota_policy (tenant_id, gpu_type_id, guaranteed_gpus, max_gpus, burst, "
                            + "max_window_seconds, max_advance_seconds, monthly_budget, priority) "
                            + "VALUES (?, ?, ?, ?, false, ?, ?, NULL, ?)",
                    tenant.id(),
                    type,
                    borrower ? 0 : guarantee,
                    borrower ? nodes * Settings.GPUS_PER_NODE : guarantee,
                    30L * 86400,
                    120L * 86400,
                    borrower ? "EXPERIMENT" : PRIORITIES[index % PRIORITIES.length]);
            (borrower ? borrowers : guaranteed).add(tenant);
        }
        return new SharedPool(type, pool, nodes, guarantee, List.copyOf(guaranteed), List.copyOf(borrowers));
    }

    /** Every tenant of the pool, guaranteed first: the order of their service accounts. */
    List<Fleet.Tenant> tenants() {
        List<Fleet.Tenant> all = new ArrayList<>(guaranteed);
        all.addAll(borrowers);
        return all;
    }

    /**
     * Frees the pool's nodes for ever, as adding a node does: a history's seed empties every free gap, and the plain
     * history has nothing on this pool.
     */
    void free(Connection c) throws SQLException {
        update(c, "DELETE FROM free_gap WHERE pool_id = ?", poolId);
        update(
                c,
                "INSERT INTO free_gap (node_id, pool_id, ib_block, during) "
                        + "SELECT id, pool_id, ib_block, tstzrange(NULL, NULL) FROM node WHERE pool_id = ?",
                poolId);
    }

    private static void update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            ps.executeUpdate();
        }
    }
}
