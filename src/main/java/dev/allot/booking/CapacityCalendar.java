package dev.allot.booking;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The capacity calendar as a maintained aggregate: per node and hour how many live allocations touch it, per
 * pool and hour (in stripes by node) how many nodes are touched. Changed in the booking transaction, under the
 * locks of the nodes concerned; read without touching allocations.
 */
@Repository
class CapacityCalendar {

	static final int STRIPES = 8;

	private final JdbcClient jdbc;

	CapacityCalendar(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	void apply(UUID poolId, List<Long> nodeIds, Hours.Shift shift) {
		if (shift.isEmpty() || nodeIds.isEmpty()) {
			return;
		}
		jdbc.sql("""
				WITH delta AS (
				    SELECT n AS node_id, d.hour, d.delta
				    FROM unnest(CAST(:nodes AS bigint[])) n,
				         unnest(CAST(CAST(:hours AS text[]) AS timestamptz[]), CAST(:deltas AS int[])) AS d(hour, delta)
				), changed AS (
				    INSERT INTO node_hour (node_id, pool_id, hour, refs)
				    SELECT node_id, :pool, hour, delta FROM delta ORDER BY node_id, hour
				    ON CONFLICT (node_id, hour) DO UPDATE SET refs = node_hour.refs + excluded.refs
				    RETURNING node_id, hour, refs
				), flips AS (
				    SELECT c.hour, CAST(c.node_id % :stripes AS smallint) AS stripe,
				           sum(CASE WHEN d.delta > 0 AND c.refs = 1 THEN 1
				                    WHEN d.delta < 0 AND c.refs = 0 THEN -1 ELSE 0 END) AS change
				    FROM changed c JOIN delta d ON d.node_id = c.node_id AND d.hour = c.hour
				    GROUP BY 1, 2
				)
				INSERT INTO pool_hour (pool_id, hour, stripe, allocated_nodes)
				SELECT :pool, hour, stripe, change FROM flips WHERE change <> 0 ORDER BY hour, stripe
				ON CONFLICT (pool_id, hour, stripe)
				DO UPDATE SET allocated_nodes = pool_hour.allocated_nodes + excluded.allocated_nodes""")
			.param("nodes", nodeIds.toArray(Long[]::new))
			.param("hours", shift.hours().stream().map(Instant::toString).toArray(String[]::new))
			.param("deltas", shift.deltas().toArray(Integer[]::new))
			.param("pool", poolId)
			.param("stripes", STRIPES)
			.update();
	}

	/** Nodes allocated in each hour of {@code [from, to)}; hours with none are absent. */
	Map<Instant, Integer> hourly(UUID poolId, Instant from, Instant to) {
		Map<Instant, Integer> counts = new TreeMap<>();
		jdbc.sql("""
				SELECT hour, sum(allocated_nodes) FROM pool_hour WHERE pool_id = ? AND hour >= ? AND hour < ?
				GROUP BY hour""")
			.params(poolId, Timestamp.from(from), Timestamp.from(to))
			.query((rs, n) -> counts.put(rs.getTimestamp(1).toInstant(), rs.getInt(2)))
			.list();
		return counts;
	}

	/** Distinct nodes allocated in each bucket of {@code step} (whole hours) from {@code from}. */
	Map<Instant, Integer> binned(UUID poolId, Instant from, Instant to, Duration step) {
		Map<Instant, Integer> counts = new TreeMap<>();
		jdbc.sql("""
				SELECT date_bin(CAST(:step AS interval), hour, CAST(:origin AS timestamptz)) AS bucket, count(DISTINCT node_id)
				FROM node_hour WHERE pool_id = :pool AND hour >= :from AND hour < :to AND refs > 0
				GROUP BY 1""")
			.param("step", step.toSeconds() + " seconds")
			.param("origin", from.toString())
			.param("pool", poolId)
			.param("from", Timestamp.from(from))
			.param("to", Timestamp.from(to))
			.query((rs, n) -> counts.put(rs.getTimestamp(1).toInstant(), rs.getInt(2)))
			.list();
		return counts;
	}

	/** Recomputes a pool's calendar from its live allocations; the caller holds the pool's node locks. */
	void rebuild(UUID poolId) {
		jdbc.sql("DELETE FROM node_hour WHERE pool_id = ?").param(poolId).update();
		jdbc.sql("DELETE FROM pool_hour WHERE pool_id = ?").param(poolId).update();
		jdbc.sql("""
				INSERT INTO node_hour (node_id, pool_id, hour, refs)
				SELECT a.node_id, a.pool_id, h, count(*)
				FROM allocation a,
				     generate_series(date_trunc('hour', lower(a.during), 'UTC'), upper(a.during) - interval '1 microsecond',
				                     interval '1 hour') h
				WHERE a.pool_id = ? AND a.active
				GROUP BY 1, 2, 3""").param(poolId).update();
		jdbc.sql("""
				INSERT INTO pool_hour (pool_id, hour, stripe, allocated_nodes)
				SELECT pool_id, hour, CAST(node_id % ? AS smallint), count(*) FROM node_hour
				WHERE pool_id = ? AND refs > 0 GROUP BY 1, 2, 3""").params(STRIPES, poolId).update();
	}

}
