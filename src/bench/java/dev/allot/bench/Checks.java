package dev.allot.bench;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

/** What must hold after the load, checked by SQL against the database the application wrote. */
final class Checks {

    record Result(
            long doubleBookings,
            long gapOverlaps,
            long hourMismatches,
            long dayMismatches,
            long usageMismatches,
            long spendMismatches,
            double occupancy) {

        boolean passed() {
            return doubleBookings == 0
                    && gapOverlaps == 0
                    && hourMismatches == 0
                    && dayMismatches == 0
                    && usageMismatches == 0
                    && spendMismatches == 0;
        }
    }

    /**
     * The sharing scenario's pool ({@link Sharing}) afterwards: nodes held twice, preempted reservations that were
     * not preemptible, preempted ones still holding nodes or quota usage (every one starts after the notice, so it
     * lets go of everything at once), and reservations whose split disagrees with their tenant's policy (a guaranteed
     * tenant's that is preemptible, a borrower's that is not). Besides, from the audit trail, how many bookings
     * preempted and the most one booking preempted (a request's audit records share its request id): the needless
     * preemptions show there.
     */
    record Shared(
            long doubleBookings,
            long preemptedNotPreemptible,
            long preemptedHolding,
            long misclassified,
            long reservations,
            long preempted,
            long reclaimingBookings,
            long mostPreemptedByOne,
            long preemptedForNothing,
            double preemptedGpuHours,
            double reclaimingGpuHours) {

        boolean passed() {
            // preemptedForNothing is printed, not failed on: reclaiming's fallback (sweeping by priority for
            // repacking to work with) may still preempt such a reservation
            return doubleBookings == 0 && preemptedNotPreemptible == 0 && preemptedHolding == 0 && misclassified == 0;
        }

        /** Preempted GPU-hours (what the victims lost) per GPU-hour booked by the bookings that preempted them. */
        double preemptedPerBooked() {
            return reclaimingGpuHours == 0 ? 0 : preemptedGpuHours / reclaimingGpuHours;
        }
    }

    private Checks() {}

    static long maxAllocationId(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT coalesce(max(id), 0) FROM allocation")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * Allocations made since {@code watermark}: none overlaps another live allocation of its node, none overlaps a
     * free gap of its node; and the calendar (per pool, hour and day) equals what the live allocations say, over
     * the booked horizon.
     */
    static Result run(Connection c, long watermark, Instant now, List<UUID> plainPools) throws SQLException {
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
        // of the plain pools: the sharing scenario's pool is booked full over two days on purpose
        try (PreparedStatement ps = c.prepareStatement("""
				SELECT coalesce(sum(allocated_nodes), 0) / (SELECT count(*) * 24.0 * 90 FROM node WHERE pool_id = ANY(?))
				FROM pool_hour WHERE hour >= ? AND hour < ? AND pool_id = ANY(?)""")) {
            Instant start = now.truncatedTo(ChronoUnit.HOURS);
            Array pools = c.createArrayOf("uuid", plainPools.toArray());
            ps.setArray(1, pools);
            ps.setTimestamp(2, Timestamp.from(start));
            ps.setTimestamp(3, Timestamp.from(start.plus(Duration.ofDays(90))));
            ps.setArray(4, pools);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                occupancy = rs.getDouble(1);
            }
        }
        return new Result(doubles, overlaps, hours, days, usageMismatches(c), spendMismatches(c), occupancy);
    }

    static Shared shared(Connection c, SharedPool pool) throws SQLException {
        UUID id = pool.poolId();
        Array guaranteed = c.createArrayOf(
                "uuid", pool.guaranteed().stream().map(Fleet.Tenant::id).toArray());
        Array borrowers = c.createArrayOf(
                "uuid", pool.borrowers().stream().map(Fleet.Tenant::id).toArray());
        long doubles = single(c, """
				SELECT count(*) FROM allocation a JOIN allocation b
				  ON b.node_id = a.node_id AND a.id < b.id AND b.active AND b.during && a.during
				WHERE a.active AND a.pool_id = ?""", id);
        long notPreemptible = single(c, """
				SELECT count(*) FROM reservation
				WHERE pool_id = ? AND lifecycle_status = 'PREEMPTED' AND NOT preemptible""", id);
        long holding = single(c, """
				SELECT count(*) FROM reservation r WHERE r.pool_id = ? AND r.lifecycle_status = 'PREEMPTED'
				  AND (EXISTS (SELECT 1 FROM allocation a WHERE a.reservation_id = r.id AND a.active)
				       OR EXISTS (SELECT 1 FROM quota_usage u WHERE u.reservation_id = r.id))""", id);
        long misclassified = single(c, """
				SELECT count(*) FROM reservation
				WHERE pool_id = ? AND ((tenant_id = ANY(?) AND preemptible) OR (tenant_id = ANY(?) AND NOT preemptible))""", id, guaranteed, borrowers);
        long reservations = single(c, "SELECT count(*) FROM reservation WHERE pool_id = ?", id);
        long preempted =
                single(c, "SELECT count(*) FROM reservation WHERE pool_id = ? AND lifecycle_status = 'PREEMPTED'", id);
        long reclaiming = single(c, """
				SELECT count(DISTINCT e.request_id) FROM audit_event e
				JOIN reservation r ON r.id::text = e.object_id AND r.pool_id = ? AND r.lifecycle_status = 'PREEMPTED'
				WHERE e.action = 'reservation.preempted'""", id);
        long most = single(c, """
				SELECT coalesce(max(n), 0) FROM (
				    SELECT count(*) AS n FROM audit_event e
				    JOIN reservation r ON r.id::text = e.object_id AND r.pool_id = ? AND r.lifecycle_status = 'PREEMPTED'
				    WHERE e.action = 'reservation.preempted' GROUP BY e.request_id) x""", id);
        // A victim is preempted for nothing when it held no node of the booking that preempted it (the booking its
        // request created: a request's audit records share its request id), judged by every allocation the booking
        // ever had: a later booking's repacking may have moved it to other nodes since (its allocations there are
        // then inactive)
        String preemptors = """
				SELECT v.id AS victim, b.id AS booking FROM audit_event pe
				JOIN reservation v ON v.id::text = pe.object_id AND v.pool_id = ? AND v.lifecycle_status = 'PREEMPTED'
				JOIN audit_event ce ON ce.request_id = pe.request_id AND ce.action = 'reservation.created'
				JOIN reservation b ON b.id::text = ce.object_id
				WHERE pe.action = 'reservation.preempted'""";
        long forNothing = single(c, "SELECT count(*) FROM (" + preemptors + """
				) p WHERE NOT EXISTS (
				    SELECT 1 FROM allocation va JOIN allocation ba ON ba.node_id = va.node_id
				    WHERE va.reservation_id = p.victim AND ba.reservation_id = p.booking)""", id);
        double lost = decimal(c, """
				SELECT coalesce(sum(gpus * extract(epoch FROM ends_at - greatest(starts_at, status_changed_at)) / 3600), 0)
				FROM reservation WHERE pool_id = ? AND lifecycle_status = 'PREEMPTED'""", id);
        double booked = decimal(
                c,
                "SELECT coalesce(sum(b.gpus * extract(epoch FROM b.ends_at - b.starts_at) / 3600), 0) "
                        + "FROM reservation b WHERE b.id IN (SELECT booking FROM (" + preemptors + ") p)",
                id);
        return new Shared(
                doubles,
                notPreemptible,
                holding,
                misclassified,
                reservations,
                preempted,
                reclaiming,
                most,
                forNothing,
                lost,
                booked);
    }

    /**
     * Edges and hour levels of the maintained usage (V60) that differ from what the priced segments in
     * {@code quota_usage} say, computed here from those segments alone: an edge wherever a segment starts or ends,
     * and at each hour start the GPUs of the segments holding it (a running sum of the segments' starts and ends).
     */
    private static long usageMismatches(Connection c) throws SQLException {
        long edges = single(c, """
				WITH truth AS (
				    SELECT tenant_id, gpu_type_id, at, count(*) AS refs, sum(delta) AS delta
				    FROM (SELECT tenant_id, gpu_type_id, lower(during) AS at,
				                 reserved_gpus + borrowed_gpus + on_demand_gpus AS delta FROM quota_usage
				          UNION ALL
				          SELECT tenant_id, gpu_type_id, upper(during), -(reserved_gpus + borrowed_gpus + on_demand_gpus)
				          FROM quota_usage) x
				    GROUP BY 1, 2, 3
				)
				SELECT count(*) FROM truth t FULL JOIN quota_usage_edge k
				  ON k.tenant_id = t.tenant_id AND k.gpu_type_id = t.gpu_type_id AND k.at = t.at
				WHERE t.refs IS DISTINCT FROM k.refs OR t.delta IS DISTINCT FROM k.delta""");
        long levels = single(c, """
				WITH events AS (
				    SELECT tenant_id, gpu_type_id, lower(during) AS at, reserved_gpus + borrowed_gpus + on_demand_gpus AS d
				    FROM quota_usage
				    UNION ALL
				    SELECT tenant_id, gpu_type_id, upper(during), -(reserved_gpus + borrowed_gpus + on_demand_gpus)
				    FROM quota_usage
				), marks AS (
				    SELECT s.tenant_id, s.gpu_type_id, h
				    FROM (SELECT tenant_id, gpu_type_id, min(at) AS lo, max(at) AS hi FROM events GROUP BY 1, 2) s,
				         generate_series(date_trunc('hour', s.lo, 'UTC'), s.hi, interval '1 hour') h
				), truth AS (
				    SELECT tenant_id, gpu_type_id, at AS hour, level FROM (
				        SELECT tenant_id, gpu_type_id, at, mark,
				               sum(d) OVER (PARTITION BY tenant_id, gpu_type_id ORDER BY at, mark ROWS UNBOUNDED PRECEDING)
				                   AS level
				        FROM (SELECT tenant_id, gpu_type_id, at, d, false AS mark FROM events
				              UNION ALL SELECT tenant_id, gpu_type_id, h, 0, true FROM marks) stream) levelled
				    WHERE mark AND level <> 0
				)
				SELECT count(*) FROM truth t FULL JOIN (SELECT * FROM quota_usage_level WHERE gpus <> 0) k
				  ON k.tenant_id = t.tenant_id AND k.gpu_type_id = t.gpu_type_id AND k.hour = t.hour
				WHERE t.level IS DISTINCT FROM k.gpus""");
        return edges + levels;
    }

    /**
     * Monthly spend counters that differ from the sum of the priced segments of their tenant, GPU type, project,
     * currency and month; a segment crossing a month start (which the counters could not attribute) counts too.
     */
    private static long spendMismatches(Connection c) throws SQLException {
        long counters = single(c, """
				WITH truth AS (
				    SELECT tenant_id, gpu_type_id, project, currency, date_trunc('month', lower(during), 'UTC') AS month,
				           sum(amount) AS amount
				    FROM quota_usage GROUP BY 1, 2, 3, 4, 5
				)
				SELECT count(*) FROM truth t FULL JOIN (SELECT * FROM quota_spend WHERE amount <> 0) k
				  ON k.tenant_id = t.tenant_id AND k.gpu_type_id = t.gpu_type_id AND k.project IS NOT DISTINCT FROM t.project
				 AND k.currency = t.currency AND k.month = t.month
				WHERE coalesce(t.amount, 0) <> coalesce(k.amount, 0)""");
        long crossing = single(c, """
				SELECT count(*) FROM quota_usage
				WHERE date_trunc('month', lower(during), 'UTC') <> date_trunc('month', upper(during) - interval '1 microsecond', 'UTC')""");
        return counters + crossing;
    }

    /** Buckets where the maintained count differs from the distinct nodes the live allocations touch. */
    private static long mismatches(Connection c, String table, String column, String step, Instant from, Instant to)
            throws SQLException {
        String unit = column.equals("hour") ? "hour" : "day";
        return single(
                c,
                """
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
                Timestamp.from(from),
                Timestamp.from(to),
                Timestamp.from(from),
                Timestamp.from(to),
                Timestamp.from(from),
                Timestamp.from(to));
    }

    private static double decimal(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getDouble(1);
            }
        }
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
