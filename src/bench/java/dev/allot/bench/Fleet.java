package dev.allot.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.flywaydb.core.Flyway;

/**
 * The fleet the benchmark books on: a fresh database migrated by the project's own Flyway migrations, GPU types
 * with rate cards, pools of 8-GPU nodes (InfiniBand blocks of 32 nodes, two racks each), and tenants with one
 * project and quota policies. Most tenants have room to spare; the last few have a tight cap without burst, so
 * that some bookings are refused by the quota (422). None has a guarantee: these pools measure booking alone, and
 * what guarantees add (reclaiming, repacking) is measured apart, in the sharing scenario. Besides them, the sharing scenario's pool and tenants
 * ({@link SharedPool}), apart from all of these.
 */
record Fleet(
        List<UUID> gpuTypeIds,
        List<UUID> poolIds,
        List<Tenant> tenants,
        long[] nodeIds,
        String[] hostnames,
        int[] nodePool,
        SharedPool shared) {

    record Tenant(int index, UUID id, String slug, UUID projectId, boolean tight) {}

    static final String PROJECT = "main";

    static final int BLOCK = 32;

    static Fleet create(Settings settings) throws SQLException {
        try (Connection admin = DriverManager.getConnection(
                        settings.databaseUrl() + "postgres", settings.databaseUser(), null);
                Statement st = admin.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + settings.database() + " WITH (FORCE)");
            st.execute("CREATE DATABASE " + settings.database());
        }
        Flyway.configure()
                .dataSource(settings.jdbcUrl(), settings.databaseUser(), null)
                .locations("filesystem:" + settings.migrations())
                .load()
                .migrate();
        try (Connection c = connect(settings)) {
            Spent.statementsCounted(c);
        }
        try (Connection c = connect(settings)) {
            c.setAutoCommit(false);
            List<UUID> types = new ArrayList<>();
            List<UUID> pools = new ArrayList<>();
            for (int i = 0; i < Settings.POOLS.length; i++) {
                UUID type = UUID.randomUUID();
                UUID pool = UUID.randomUUID();
                update(
                        c,
                        "INSERT INTO gpu_type (id, code, memory_gb, interconnect) VALUES (?, ?, 80, 'NVLINK')",
                        type,
                        Settings.GPU_TYPES[i]);
                update(
                        c,
                        "INSERT INTO rate_card (gpu_type_id, effective_from, currency, reserved, borrowed, on_demand) "
                                + "VALUES (?, DATE '2020-01-01', 'USD', 2.00, 1.50, 4.00)",
                        type);
                update(
                        c,
                        "INSERT INTO pool (id, name, gpu_type_id, gpus_per_node, region) VALUES (?, ?, ?, ?, 'bench-1')",
                        pool,
                        Settings.POOLS[i],
                        type,
                        Settings.GPUS_PER_NODE);
                types.add(type);
                pools.add(pool);
            }
            List<Tenant> tenants = new ArrayList<>();
            for (int t = 0; t < settings.tenants(); t++) {
                boolean tight = t >= settings.tenants() - settings.tightTenants();
                Tenant tenant =
                        new Tenant(t, UUID.randomUUID(), "tenant-%02d".formatted(t + 1), UUID.randomUUID(), tight);
                update(
                        c,
                        "INSERT INTO tenant (id, slug, display_name, status) VALUES (?, ?, ?, 'ACTIVE')",
                        tenant.id(),
                        tenant.slug(),
                        "Bench tenant " + (t + 1));
                update(
                        c,
                        "INSERT INTO project (id, tenant_id, slug, display_name) VALUES (?, ?, ?, 'Main')",
                        tenant.projectId(),
                        tenant.id(),
                        PROJECT);
                update(c, "INSERT INTO quota (tenant_id) VALUES (?)", tenant.id());
                for (UUID type : types) {
                    update(
                            c,
                            "INSERT INTO quota_policy (tenant_id, gpu_type_id, guaranteed_gpus, max_gpus, burst, "
                                    + "max_window_seconds, max_advance_seconds, monthly_budget, priority) "
                                    + "VALUES (?, ?, ?, ?, ?, ?, ?, NULL, 'TRAINING')",
                            tenant.id(),
                            type,
                            0,
                            tight ? 64 : 1_000_000,
                            !tight,
                            30L * 86400,
                            120L * 86400);
                }
                tenants.add(tenant);
            }
            int perPool = settings.nodesPerPool();
            try (Copy nodes = new Copy(c, "node", "hostname, pool_id, rack, ib_block, cuda_drivers, state")) {
                for (int p = 0; p < pools.size(); p++) {
                    for (int n = 0; n < perPool; n++) {
                        int block = n / BLOCK;
                        nodes.row(
                                hostname(p, n),
                                pools.get(p),
                                "rack-" + (block * 2 + (n % BLOCK) * 2 / BLOCK),
                                block(n),
                                "{550.54,560.35}",
                                "AVAILABLE");
                    }
                }
            }
            long[] ids = new long[settings.nodes()];
            String[] hostnames = new String[settings.nodes()];
            int[] nodePool = new int[settings.nodes()];
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT id, hostname FROM node ORDER BY id")) {
                for (int i = 0; rs.next(); i++) {
                    ids[i] = rs.getLong(1);
                    hostnames[i] = rs.getString(2);
                    nodePool[i] = i / perPool;
                }
            }
            SharedPool shared = SharedPool.create(c, settings);
            c.commit();
            return new Fleet(types, pools, tenants, ids, hostnames, nodePool, shared);
        }
    }

    /** The InfiniBand block of a pool's node, by its index in the pool. */
    static String block(int node) {
        return "ib-" + node / BLOCK;
    }

    static String hostname(int pool, int node) {
        return Settings.POOLS[pool] + "-n%05d".formatted(node);
    }

    static Connection connect(Settings settings) throws SQLException {
        return DriverManager.getConnection(settings.jdbcUrl(), settings.databaseUser(), null);
    }

    List<Tenant> generous() {
        return tenants.stream().filter(t -> !t.tight()).toList();
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
