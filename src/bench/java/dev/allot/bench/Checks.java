package dev.allot.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** What must hold after the load, checked by SQL against the database the application wrote. */
final class Checks {

	record Result(long doubleBookings, long gapOverlaps, long hourMismatches, long dayMismatches, double occupancy) {

		boolean passed() {
			return doubleBookings == 0 && gapOverlaps == 0 && hourMismatches == 0 && dayMismatches == 0;
		}

	}

	private Checks() {
	}

	static long maxAllocationId(Connection c) throws SQLException {
		try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT coalesce(max(id), 0) FROM allocation")) {
			rs.next();
			return rs.getLong(1);
		}
	}

	/**
	 * Allocations made since {@code watermark}: none overlaps another live allocation of its node, none overlaps a
	 * free gap of its node; and the calendar (per pool, hour and day) equals what the live allocations say, over
	 * the booked horizon.
	 */
	static Result run(Connection c, long watermark, Instant now) throws SQLException {
		long doubles = single(c, """
				SELECT count(*) FROM allocation a JOIN allocation b
				  ON b.node_id = a.node_id AND b.id <> a.id AND b.active AND b.during && a.during
				WHERE a.active AND a.id > ?""", watermark);
		long overlaps = single(c, """
				SELECT count(*) FROM allocation a JOIN free_gap g ON g.node_id = a.node_id AND g.during && a.during
				WHERE a.active AND a.id > ?""", watermark);
		Instant from = now.truncatedTo(ChronoUnit.DAYS);
		Instant to = from.plus(Duration.ofDays(96));
		long hours = mismatches(c, "pool_hour", "hour", "1 hour", from, to);
		long days = mismatches(c, "pool_day", "day", "24 hours", from, to);
		double occupancy;
		try (PreparedStatement ps = c.prepareStatement("""
				SELECT coalesce(sum(allocated_nodes), 0) / (SELECT count(*) * 24.0 * 90 FROM node)
				FROM pool_hour WHERE hour >= ? AND hour < ?""")) {
			Instant start = now.truncatedTo(ChronoUnit.HOURS);
			ps.setTimestamp(1, Timestamp.from(start));
			ps.setTimestamp(2, Timestamp.from(start.plus(Duration.ofDays(90))));
			try (ResultSet rs = ps.executeQuery()) {
				rs.next();
				occupancy = rs.getDouble(1);
			}
		}
		return new Result(doubles, overlaps, hours, days, occupancy);
	}

	/** Buckets where the maintained count differs from the distinct nodes the live allocations touch. */
	private static long mismatches(Connection c, String table, String column, String step, Instant from, Instant to)
			throws SQLException {
		String unit = column.equals("hour") ? "hour" : "day";
		return single(c, """
				WITH truth AS (
				    SELECT a.pool_id, b, count(DISTINCT a.node_id) AS n
				    FROM allocation a,
				         generate_series(date_trunc('%s', greatest(lower(a.during), CAST(? AS timestamptz)), 'UTC'),
				                         least(upper(a.during), CAST(? AS timestamptz)) - interval '1 microsecond',
				                         interval '%s') b
				    WHERE a.active AND a.during && tstzrange(CAST(? AS timestamptz), CAST(? AS timestamptz))
				    GROUP BY 1, 2
				), kept AS (
				    SELECT pool_id, %s AS b, sum(allocated_nodes) AS n FROM %s WHERE %s >= ? AND %s < ? GROUP BY 1, 2
				)
				SELECT count(*) FROM truth t FULL JOIN kept k ON k.pool_id = t.pool_id AND k.b = t.b
				WHERE coalesce(t.n, 0) <> coalesce(k.n, 0)""".formatted(unit, step, column, table, column, column),
				Timestamp.from(from), Timestamp.from(to), Timestamp.from(from), Timestamp.from(to), Timestamp.from(from),
				Timestamp.from(to));
	}

	private static long single(Connection c, String sql, Object... params) throws SQLException {
		try (PreparedStatement ps = c.prepareStatement(sql)) {
			for (int i = 0; i < params.length; i++) {
				ps.setObject(i + 1, params[i]);
			}
			try (ResultSet rs = ps.executeQuery()) {
				rs.next();
				return rs.getLong(1);
			}
		}
	}

}
