package dev.allot.booking.allocation;

import dev.allot.inventory.NodeCommitments.Commitment;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The live allocations that commit a node, or a pool's nodes, to reservations from an instant on (for inventory). */
@Repository
class CommitmentRepository {

    private final JdbcClient jdbc;

    CommitmentRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Live reservations holding a node from an instant on (for quarantine). */
    List<Commitment> onNodeFrom(long nodeId, Instant from) {
        return jdbc.sql("""
				SELECT r.id, r.tenant_slug, lower(a.during) AS s, upper(a.during) AS e
				FROM allocation a JOIN reservation r ON r.id = a.reservation_id
				WHERE a.node_id = ? AND a.active AND upper(a.during) > ? ORDER BY lower(a.during)""")
                .params(nodeId, Timestamp.from(from))
                .query(CommitmentRepository::commitment)
                .list();
    }

    /** Live reservations holding a node of the pool from an instant on, one row each (for a pool's dedication). */
    List<Commitment> inPoolFrom(UUID poolId, Instant from) {
        return jdbc.sql("""
				SELECT r.id, r.tenant_slug, min(lower(a.during)) AS s, max(upper(a.during)) AS e
				FROM allocation a JOIN reservation r ON r.id = a.reservation_id
				WHERE a.pool_id = ? AND a.active AND upper(a.during) > ?
				GROUP BY r.id, r.tenant_slug ORDER BY s, r.id""")
                .params(poolId, Timestamp.from(from))
                .query(CommitmentRepository::commitment)
                .list();
    }

    private static Commitment commitment(ResultSet rs, int row) throws SQLException {
        return new Commitment(
                rs.getObject(1, UUID.class),
                rs.getString(2),
                rs.getTimestamp(3).toInstant(),
                rs.getTimestamp(4).toInstant());
    }
}
