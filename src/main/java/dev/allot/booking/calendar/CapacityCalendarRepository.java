package dev.allot.booking.calendar;

import dev.allot.booking.allocation.AllocationRepository;
import dev.allot.booking.allocation.Hours;
import dev.allot.shared.TimeWindow;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The capacity calendar as a maintained aggregate: per pool and UTC hour, and per pool and UTC day, how many
 * nodes have an allocation touching the bucket. Kept from the free gaps in the transaction that changes them
 * (see {@link Hours#flipping}), under the locks of the nodes concerned; read without touching allocations.
 * Each change writes its counts into one stripe chosen at random, so that concurrent bookings of one pool rarely
 * wait on the same row; a bucket's count is the sum of its stripes.
 */
@Repository
public class CapacityCalendarRepository {

    static final int STRIPES = 8;

    private final JdbcClient jdbc;

    private final LiveCalendar live;

    CapacityCalendarRepository(JdbcClient jdbc, LiveCalendar live) {
        this.jdbc = jdbc;
        this.live = live;
    }

    /** The window was cut out of these gaps (one per node): buckets they held whole are now allocated. */
    public void taken(UUID poolId, List<AllocationRepository.Gap> gaps, TimeWindow window) {
        apply(poolId, gaps, window, 1);
    }

    /** The window was merged back into these gaps: buckets they now hold whole are free again. */
    public void returned(UUID poolId, List<AllocationRepository.Gap> gaps, TimeWindow window) {
        apply(poolId, gaps, window, -1);
    }

    private void apply(UUID poolId, List<AllocationRepository.Gap> gaps, TimeWindow window, int sign) {
        Map<Instant, Integer> hours = new TreeMap<>();
        Map<Instant, Integer> days = new TreeMap<>();
        for (AllocationRepository.Gap gap : gaps) {
            Hours.flipping(window, gap.from(), gap.to(), Hours.HOUR).forEach(h -> hours.merge(h, sign, Integer::sum));
            Hours.flipping(window, gap.from(), gap.to(), Hours.DAY).forEach(d -> days.merge(d, sign, Integer::sum));
        }
        if (hours.isEmpty() && days.isEmpty()) {
            return;
        }
        int nonce = ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE);
        // The same statement announces the change to every replica's live calendar (LiveCalendar), delivered when
        // this transaction commits; the nonce keeps two equal changes of one transaction from being sent as one.
        long transaction = jdbc.sql("""
				WITH hours AS (
				    INSERT INTO pool_hour (pool_id, hour, stripe, allocated_nodes)
				    SELECT :pool, h, :stripe, n
				    FROM unnest(CAST(CAST(:hours AS text[]) AS timestamptz[]), CAST(:hourCounts AS int[])) AS x(h, n)
				    ORDER BY h
				    ON CONFLICT (pool_id, hour, stripe)
				    DO UPDATE SET allocated_nodes = pool_hour.allocated_nodes + excluded.allocated_nodes
				    RETURNING 1
				), days AS (
				    INSERT INTO pool_day (pool_id, day, stripe, allocated_nodes)
				    SELECT :pool, d, :stripe, n
				    FROM unnest(CAST(CAST(:days AS text[]) AS timestamptz[]), CAST(:dayCounts AS int[])) AS x(d, n)
				    ORDER BY d
				    ON CONFLICT (pool_id, day, stripe)
				    DO UPDATE SET allocated_nodes = pool_day.allocated_nodes + excluded.allocated_nodes
				    RETURNING 1
				)
				SELECT CAST(pg_current_xact_id() AS text) AS transaction,
				       pg_notify(:channel, CAST(:pool AS text) || ';' || pg_current_xact_id() || ';' || :counts || ';'
				           || :nonce) AS sent""")
                .param("channel", CalendarDelta.CHANNEL)
                .param("counts", CalendarDelta.counts(hours, days))
                .param("nonce", nonce)
                .param("pool", poolId)
                .param("stripe", ThreadLocalRandom.current().nextInt(STRIPES))
                .param("hours", hours.keySet().stream().map(Instant::toString).toArray(String[]::new))
                .param("hourCounts", hours.values().toArray(Integer[]::new))
                .param("days", days.keySet().stream().map(Instant::toString).toArray(String[]::new))
                .param("dayCounts", days.values().toArray(Integer[]::new))
                .query((rs, n) -> Long.parseLong(rs.getString("transaction")))
                .single();
        live.changing(new CalendarDelta(poolId, transaction, nonce, false, hours, days));
    }

    /** Nodes allocated in each hour of {@code [from, to)}; hours with none are absent. */
    Map<Instant, Integer> hourly(UUID poolId, Instant from, Instant to) {
        return summed("pool_hour", "hour", poolId, from, to);
    }

    /** Nodes allocated in each UTC day of {@code [from, to)}; {@code from} is a UTC midnight. */
    Map<Instant, Integer> daily(UUID poolId, Instant from, Instant to) {
        return summed("pool_day", "day", poolId, from, to);
    }

    private Map<Instant, Integer> summed(String table, String column, UUID poolId, Instant from, Instant to) {
        Map<Instant, Integer> counts = new TreeMap<>();
        jdbc.sql("SELECT " + column + ", sum(allocated_nodes) FROM " + table + " WHERE pool_id = ? AND " + column
                        + " >= ? AND " + column + " < ? GROUP BY " + column)
                .params(poolId, Timestamp.from(from), Timestamp.from(to))
                .query((rs, n) -> counts.put(rs.getTimestamp(1).toInstant(), rs.getInt(2)))
                .list();
        return counts;
    }

    /**
     * Distinct nodes allocated in each bucket of {@code step} (whole hours) from {@code from}, counted from the
     * allocations: for steps the aggregates do not hold (neither an hour nor a day from a UTC midnight).
     */
    Map<Instant, Integer> binned(UUID poolId, Instant from, Instant to, Duration step) {
        Map<Instant, Integer> counts = new TreeMap<>();
        jdbc.sql("""
				SELECT b, count(DISTINCT a.node_id)
				FROM allocation a,
				     generate_series(date_bin(CAST(:step AS interval), greatest(lower(a.during), CAST(:from AS timestamptz)),
				                              CAST(:from AS timestamptz)),
				                     least(upper(a.during), CAST(:to AS timestamptz)) - interval '1 microsecond',
				                     CAST(:step AS interval)) b
				WHERE a.pool_id = :pool AND a.active
				  AND a.during && tstzrange(CAST(:from AS timestamptz), CAST(:to AS timestamptz), '[)')
				GROUP BY b""")
                .param("step", step.toSeconds() + " seconds")
                .param("pool", poolId)
                .param("from", Timestamp.from(from))
                .param("to", Timestamp.from(to))
                .query((rs, n) -> counts.put(rs.getTimestamp(1).toInstant(), rs.getInt(2)))
                .list();
        return counts;
    }

    /** Recomputes a pool's calendar from its live allocations; the caller holds the pool's node locks. */
    void rebuild(UUID poolId) {
        jdbc.sql("DELETE FROM pool_hour WHERE pool_id = ?").param(poolId).update();
        jdbc.sql("DELETE FROM pool_day WHERE pool_id = ?").param(poolId).update();
        for (String[] bucket : new String[][] {{"pool_hour", "hour", "1 hour"}, {"pool_day", "day", "24 hours"}}) {
            jdbc.sql("INSERT INTO " + bucket[0] + " (pool_id, " + bucket[1] + ", stripe, allocated_nodes) " + """
					SELECT a.pool_id, b, CAST(a.node_id % ? AS smallint), count(DISTINCT a.node_id)
					FROM allocation a,
					     generate_series(date_trunc(?, lower(a.during), 'UTC'), upper(a.during) - interval '1 microsecond',
					                     CAST(? AS interval)) b
					WHERE a.pool_id = ? AND a.active
					GROUP BY 1, 2, 3""")
                    .params(STRIPES, bucket[1], bucket[2], poolId)
                    .update();
        }
        jdbc.sql("SELECT pg_notify(?, ? || ';reset')")
                .params(CalendarDelta.CHANNEL, poolId.toString())
                .query()
                .listOfRows();
        live.changing(CalendarDelta.reset(poolId));
    }
}
