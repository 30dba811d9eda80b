package dev.allot.inventory;

import dev.allot.shared.PageQuery;
import dev.allot.shared.SearchQuery;
import dev.allot.shared.changes.TableChanges;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
class InventoryRepository {

    private static final String POOL_SELECT = """
			SELECT p.id, p.name, p.gpus_per_node, p.region, p.spare_nodes, p.dedicated_to, g.id AS gpu_type_id, g.code,
			       g.memory_gb, g.interconnect
			FROM pool p JOIN gpu_type g ON g.id = p.gpu_type_id""";

    private static final String NODE_SELECT =
            "SELECT n.*, p.name AS pool_name FROM node n JOIN pool p ON p.id = n.pool_id";

    private final JdbcClient jdbc;

    private final TableChanges changes;

    InventoryRepository(JdbcClient jdbc, TableChanges changes) {
        this.jdbc = jdbc;
        this.changes = changes;
    }

    boolean insert(GpuType type) {
        changes.changed("gpu_type");
        return jdbc.sql("""
				INSERT INTO gpu_type (id, code, memory_gb, interconnect) VALUES (?, ?, ?, ?)
				ON CONFLICT (code) DO NOTHING""")
                        .params(type.id(), type.code(), type.memoryGb(), type.interconnect())
                        .update()
                == 1;
    }

    Optional<GpuType> gpuType(String code) {
        return jdbc.sql("SELECT * FROM gpu_type WHERE code = ?")
                .param(code)
                .query(InventoryRepository::gpuType)
                .optional();
    }

    List<GpuType> gpuTypes(PageQuery page) {
        return jdbc.sql("SELECT * FROM gpu_type ORDER BY code LIMIT ? OFFSET ?")
                .params(page.size(), page.offset())
                .query(InventoryRepository::gpuType)
                .list();
    }

    long countGpuTypes() {
        return jdbc.sql("SELECT count(*) FROM gpu_type").query(Long.class).single();
    }

    boolean insert(Pool pool) {
        changes.changed("pool");
        return jdbc.sql("""
				INSERT INTO pool (id, name, gpu_type_id, gpus_per_node, region, dedicated_to) VALUES (?, ?, ?, ?, ?, ?)
				ON CONFLICT (name) DO NOTHING""")
                        .params(
                                pool.id(),
                                pool.name(),
                                pool.gpuType().id(),
                                pool.gpusPerNode(),
                                pool.region(),
                                pool.dedicatedTo().toArray(String[]::new))
                        .update()
                == 1;
    }

    Optional<Pool> poolForUpdate(String name) {
        return jdbc.sql(POOL_SELECT + " WHERE p.name = ? FOR NO KEY UPDATE OF p")
                .param(name)
                .query(InventoryRepository::pool)
                .optional();
    }

    void updateSpareNodes(UUID poolId, int spareNodes) {
        changes.changed("pool");
        jdbc.sql("UPDATE pool SET spare_nodes = ? WHERE id = ?")
                .params(spareNodes, poolId)
                .update();
    }

    void updateDedicatedTo(UUID poolId, List<String> tenants) {
        changes.changed("pool");
        jdbc.sql("UPDATE pool SET dedicated_to = ? WHERE id = ?")
                .params(tenants.toArray(String[]::new), poolId)
                .update();
    }

    Optional<Pool> pool(String name) {
        return jdbc.sql(POOL_SELECT + " WHERE p.name = ?")
                .param(name)
                .query(InventoryRepository::pool)
                .optional();
    }

    /** The pools, or with {@code openTo} only those shared by all or dedicated to one of these tenants. */
    List<Pool> pools(PageQuery page, String @Nullable [] openTo) {
        return jdbc.sql(POOL_SELECT + OPEN_TO + " ORDER BY p.name LIMIT ? OFFSET ?")
                .params(openTo, openTo, page.size(), page.offset())
                .query(InventoryRepository::pool)
                .list();
    }

    long countPools(String @Nullable [] openTo) {
        return jdbc.sql("SELECT count(*) FROM pool p" + OPEN_TO)
                .params(openTo, openTo)
                .query(Long.class)
                .single();
    }

    private static final String OPEN_TO =
            " WHERE (CAST(? AS text[]) IS NULL OR p.dedicated_to = '{}' OR p.dedicated_to && CAST(? AS text[]))";

    private static final String POOL_COUNTS = """
			JOIN LATERAL (SELECT count(*) FILTER (WHERE n.state <> 'RETIRED') AS nodes,
			                     count(*) FILTER (WHERE n.state IN ('QUARANTINED', 'IN_REPAIR')) AS unhealthy,
			                     count(*) FILTER (WHERE n.state = 'AVAILABLE' AND NOT n.spare) AS bookable,
			                     count(*) FILTER (WHERE n.state = 'AVAILABLE' AND n.spare) AS spares
			              FROM node n WHERE n.pool_id = p.id) c ON true""";

    /** The pools whose name, GPU type or region holds the search text, each with its nodes counted, in the order asked. */
    List<Inventory.PoolListing> searchPools(SearchQuery query) {
        Where where = poolSearch(query);
        where.params.add(query.page().size());
        where.params.add(query.page().offset());
        return jdbc.sql(POOL_SELECT.replace(
                                "\nFROM pool p", ", c.nodes, c.unhealthy, c.bookable, c.spares\nFROM pool p")
                        + " " + POOL_COUNTS + where.sql + query.orderBy() + " LIMIT ? OFFSET ?")
                .params(where.params)
                .query((rs, n) -> new Inventory.PoolListing(
                        pool(rs, n),
                        new Inventory.PoolSize(
                                rs.getInt("nodes"),
                                rs.getInt("unhealthy"),
                                rs.getInt("bookable"),
                                rs.getInt("spares"))))
                .list();
    }

    long countSearchedPools(SearchQuery query) {
        Where where = poolSearch(query);
        return jdbc.sql("SELECT count(*) FROM pool p JOIN gpu_type g ON g.id = p.gpu_type_id" + where.sql)
                .params(where.params)
                .query(Long.class)
                .single();
    }

    private static Where poolSearch(SearchQuery query) {
        Where where = new Where();
        if (query.pattern() != null) {
            where.and(
                    "(p.name ILIKE ? ESCAPE '\\' OR g.code ILIKE ? ESCAPE '\\' OR p.region ILIKE ? ESCAPE '\\')",
                    query.pattern(),
                    query.pattern(),
                    query.pattern());
        }
        return where;
    }

    /** Nodes whose hostname holds the search text, of the filter's pool, state and GPU type, in the order asked. */
    List<Node> searchNodes(Inventory.NodeFilter filter, SearchQuery query) {
        Where where = nodeSearch(filter, query);
        where.params.add(query.page().size());
        where.params.add(query.page().offset());
        return jdbc.sql("SELECT n.*, p.name AS pool_name FROM node n JOIN pool p ON p.id = n.pool_id"
                        + " JOIN gpu_type g ON g.id = p.gpu_type_id" + where.sql + query.orderBy()
                        + " LIMIT ? OFFSET ?")
                .params(where.params)
                .query(InventoryRepository::node)
                .list();
    }

    long countNodes(Inventory.NodeFilter filter, SearchQuery query) {
        Where where = nodeSearch(filter, query);
        return jdbc.sql(
                        "SELECT count(*) FROM node n JOIN pool p ON p.id = n.pool_id JOIN gpu_type g ON g.id = p.gpu_type_id"
                                + where.sql)
                .params(where.params)
                .query(Long.class)
                .single();
    }

    private static Where nodeSearch(Inventory.NodeFilter filter, SearchQuery query) {
        Where where = new Where();
        if (query.pattern() != null) {
            where.and("n.hostname ILIKE ? ESCAPE '\\'", query.pattern());
        }
        if (filter.pool() != null) {
            where.and("p.name = ?", filter.pool());
        }
        if (filter.state() != null) {
            where.and("n.state = ?", filter.state().name());
        }
        if (filter.gpuType() != null) {
            where.and("g.code = ?", filter.gpuType());
        }
        return where;
    }

    /** A WHERE clause built from fixed fragments, and the parameters they take. */
    private static final class Where {

        private String sql = "";

        private final List<Object> params = new ArrayList<>();

        void and(String condition, Object... values) {
            sql += (sql.isEmpty() ? " WHERE " : " AND ") + condition;
            params.addAll(Arrays.asList(values));
        }
    }

    /** Per pool of the type, its healthy GPUs (as {@link #healthyGpus}) and the tenants it is dedicated to. */
    List<Inventory.PoolCapacity> healthyGpusByPool(UUID gpuTypeId) {
        return jdbc.sql("""
				SELECT p.name, p.dedicated_to, greatest(a.available - p.spare_nodes, 0) * p.gpus_per_node
				FROM pool p
				JOIN LATERAL (SELECT count(*) AS available FROM node n
				              WHERE n.pool_id = p.id AND n.state = 'AVAILABLE') a ON true
				WHERE p.gpu_type_id = ? ORDER BY p.name""")
                .param(gpuTypeId)
                .query((rs, n) -> new Inventory.PoolCapacity(
                        rs.getString(1), List.of((String[]) rs.getArray(2).getArray()), rs.getInt(3)))
                .list();
    }

    /** Inserts unless the hostname is taken; answers the new node's id. */
    Optional<Long> insert(
            UUID poolId, String hostname, String rack, String ibBlock, List<String> drivers, Timestamp at) {
        changes.changed("node");
        return jdbc.sql("""
				INSERT INTO node (hostname, pool_id, rack, ib_block, cuda_drivers, state, state_changed_at, created_at)
				VALUES (?, ?, ?, ?, ?, 'AVAILABLE', ?, ?) ON CONFLICT (hostname) DO NOTHING RETURNING id""")
                .params(hostname, poolId, rack, ibBlock, drivers.toArray(String[]::new), at, at)
                .query(Long.class)
                .optional();
    }

    Optional<Node> node(String hostname) {
        return jdbc.sql(NODE_SELECT + " WHERE n.hostname = ?")
                .param(hostname)
                .query(InventoryRepository::node)
                .optional();
    }

    Optional<Node> nodeForUpdate(String hostname) {
        return jdbc.sql(NODE_SELECT + " WHERE n.hostname = ? FOR UPDATE OF n")
                .param(hostname)
                .query(InventoryRepository::node)
                .optional();
    }

    List<Node> nodes(UUID poolId, PageQuery page) {
        return jdbc.sql(NODE_SELECT + " WHERE n.pool_id = ? ORDER BY n.hostname LIMIT ? OFFSET ?")
                .params(poolId, page.size(), page.offset())
                .query(InventoryRepository::node)
                .list();
    }

    long countNodes(UUID poolId) {
        return jdbc.sql("SELECT count(*) FROM node WHERE pool_id = ?")
                .param(poolId)
                .query(Long.class)
                .single();
    }

    void updateState(Node node) {
        changes.changed("node");
        jdbc.sql(
                        "UPDATE node SET state = ?, state_reason = ?, state_changed_at = ?, spare = spare AND ? = 'AVAILABLE' WHERE id = ?")
                .params(
                        node.state().name(),
                        node.stateReason(),
                        Timestamp.from(node.stateChangedAt()),
                        node.state().name(),
                        node.id())
                .update();
    }

    /** GPUs of a pool's nodes by state, for the capacity calendar. */
    List<StateCount> nodeCounts(UUID poolId) {
        return jdbc.sql(
                        "SELECT state, count(*), count(*) FILTER (WHERE spare) FROM node WHERE pool_id = ? GROUP BY state")
                .param(poolId)
                .query((rs, n) -> new StateCount(NodeState.valueOf(rs.getString(1)), rs.getInt(2), rs.getInt(3)))
                .list();
    }

    record StateCount(NodeState state, int nodes, int spares) {}

    /** The GPUs of the type's available nodes, over all its pools, less each pool's hot spares. */
    int healthyGpus(UUID gpuTypeId) {
        return jdbc.sql("""
				SELECT coalesce(sum(greatest(available - p.spare_nodes, 0) * p.gpus_per_node), 0)
				FROM pool p
				JOIN LATERAL (SELECT count(*) AS available FROM node n
				              WHERE n.pool_id = p.id AND n.state = 'AVAILABLE') a ON true
				WHERE p.gpu_type_id = ?""").param(gpuTypeId).query(Integer.class).single();
    }

    /** Nodes out of service for a fault, counted by pool, state and reason (one read for the whole calendar). */
    List<Inventory.OutOfService> outOfService() {
        return jdbc.sql("""
				SELECT p.name, n.state, n.state_reason, count(*) FROM node n JOIN pool p ON p.id = n.pool_id
				WHERE n.state IN ('QUARANTINED', 'IN_REPAIR') GROUP BY 1, 2, 3 ORDER BY 1, 2, 3""")
                .query((rs, n) -> new Inventory.OutOfService(
                        rs.getString(1), NodeState.valueOf(rs.getString(2)), rs.getString(3), rs.getInt(4)))
                .list();
    }

    FleetHealth fleetHealth(int limit) {
        Map<NodeState, Integer> byState = new EnumMap<>(NodeState.class);
        int[] gpus = {0};
        jdbc.sql("""
				SELECT n.state, count(*), sum(p.gpus_per_node) FROM node n JOIN pool p ON p.id = n.pool_id
				WHERE n.state <> 'RETIRED' GROUP BY n.state""").query(rs -> {
            NodeState state = NodeState.valueOf(rs.getString(1));
            byState.put(state, rs.getInt(2));
            gpus[0] += rs.getInt(3);
        });
        List<Node> out = jdbc.sql(NODE_SELECT + " WHERE n.state IN ('QUARANTINED', 'DRAINING', 'IN_REPAIR')"
                        + " ORDER BY n.state_changed_at DESC, n.hostname LIMIT ?")
                .param(limit)
                .query(InventoryRepository::node)
                .list();
        int outOfService = byState.getOrDefault(NodeState.QUARANTINED, 0)
                + byState.getOrDefault(NodeState.DRAINING, 0)
                + byState.getOrDefault(NodeState.IN_REPAIR, 0);
        return new FleetHealth(byState, gpus[0], outOfService, out);
    }

    private static GpuType gpuType(ResultSet rs, int row) throws SQLException {
        return new GpuType(
                rs.getObject("id", UUID.class),
                rs.getString("code"),
                rs.getInt("memory_gb"),
                rs.getString("interconnect"));
    }

    private static Pool pool(ResultSet rs, int row) throws SQLException {
        GpuType type = new GpuType(
                rs.getObject("gpu_type_id", UUID.class),
                rs.getString("code"),
                rs.getInt("memory_gb"),
                rs.getString("interconnect"));
        return new Pool(
                rs.getObject("id", UUID.class),
                rs.getString("name"),
                type,
                rs.getInt("gpus_per_node"),
                rs.getString("region"),
                rs.getInt("spare_nodes"),
                List.of((String[]) rs.getArray("dedicated_to").getArray()));
    }

    private static Node node(ResultSet rs, int row) throws SQLException {
        Array drivers = rs.getArray("cuda_drivers");
        return new Node(
                rs.getLong("id"),
                rs.getString("hostname"),
                rs.getString("pool_name"),
                rs.getString("rack"),
                rs.getString("ib_block"),
                Arrays.asList((String[]) drivers.getArray()),
                NodeState.valueOf(rs.getString("state")),
                rs.getString("state_reason"),
                rs.getTimestamp("state_changed_at").toInstant(),
                rs.getTimestamp("created_at").toInstant(),
                rs.getBoolean("spare"));
    }

    List<String> cudaDrivers(UUID poolId) {
        return jdbc.sql("""
				SELECT DISTINCT d FROM node, unnest(cuda_drivers) d WHERE pool_id = ? AND state <> 'RETIRED' ORDER BY d""").param(poolId).query(String.class).list();
    }
}
