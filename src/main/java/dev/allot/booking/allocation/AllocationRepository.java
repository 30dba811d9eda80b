package dev.allot.booking.allocation;

import dev.allot.booking.Holding;
import dev.allot.shared.TimeWindow;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Nodes, their free gaps and their allocations. Every change to a node's gaps happens under that node's row
 * lock, so gaps stay the exact complement of the node's active allocations; the exclusion constraint on
 * allocations is the guarantee whatever happens here.
 */
@Repository
public class AllocationRepository {

    /** A node locked for a booking. */
    public record Locked(long nodeId, String hostname) {}

    /** A node's free gap around a changed window, as it is after a release or was before a booking. */
    public record Gap(
            long nodeId, @Nullable Instant from, @Nullable Instant to) {}

    public static final String WINDOW = "tstzrange(CAST(:start AS timestamptz), CAST(:end AS timestamptz), '[)')";

    /*
     * The statements a booking and a cancellation run here, public so that the benchmark's JDBC mode runs these very
     * texts (issue 32: one copy of the booking's SQL, which cannot drift).
     */

    /** Which of {@code :nodes} have one free gap holding the window {@code :start}..{@code :end}. */
    public static final String FREE_FOR =
            "SELECT node_id FROM free_gap WHERE node_id = ANY(:nodes) AND during @> " + WINDOW;

    /** Cuts the window out of the free gaps of {@code :nodes} holding it; answers the gaps taken. */
    public static final String TAKE_FROM_GAPS = """
				WITH taken AS (
				    DELETE FROM free_gap WHERE node_id = ANY(:nodes) AND during @> """ + WINDOW + """
				    RETURNING node_id, pool_id, ib_block, during
				), pieces AS (
				    INSERT INTO free_gap (node_id, pool_id, ib_block, during)
				    SELECT node_id, pool_id, ib_block, piece FROM taken,
				        LATERAL (VALUES (tstzrange(lower(during), CAST(:start AS timestamptz), '[)')), (tstzrange(CAST(:end AS timestamptz), upper(during), '[)'))) v(piece)
				    WHERE NOT isempty(piece)
				)
				SELECT node_id, lower(during), upper(during) FROM taken""";

    /** Gives the window back to {@code :nodes} of {@code :pool}, merged with the gaps touching it. */
    public static final String RETURN_TO_GAPS = """
				WITH freed AS (
				    SELECT unnest(CAST(:nodes AS bigint[])) AS node_id,
				           tstzrange(CAST(:start AS timestamptz), CAST(:end AS timestamptz), '[)') AS during
				), neighbours AS (
				    DELETE FROM free_gap g USING freed f WHERE g.node_id = f.node_id AND g.during -|- f.during
				    RETURNING g.node_id, g.during
				), merged AS (
				    SELECT node_id, range_agg(during) AS free FROM (
				        SELECT node_id, during FROM freed UNION ALL SELECT node_id, during FROM neighbours) pieces
				    GROUP BY node_id
				)
				INSERT INTO free_gap (node_id, pool_id, during) SELECT node_id, :pool, unnest(free) FROM merged
				RETURNING node_id, lower(during), upper(during)""";

    /** Allocates {@code :nodes} of {@code :pool} to {@code :reservation} for the window. */
    public static final String ALLOCATE = "INSERT INTO allocation (reservation_id, node_id, pool_id, during) "
            + "SELECT :reservation, unnest(CAST(:nodes AS bigint[])), :pool, " + WINDOW;

    private final JdbcClient jdbc;

    private final FreeNodeRepository freeNodes;

    AllocationRepository(JdbcClient jdbc, FreeNodeRepository freeNodes) {
        this.jdbc = jdbc;
        this.freeNodes = freeNodes;
    }

    /**
     * Locks one free node to take a failed node's place in a reservation ({@link FreeNodeRepository#lockReplacement}):
     * the lifecycle replaces nodes through this repository.
     */
    public List<Locked> lockReplacement(
            UUID poolId, TimeWindow window, @Nullable String cudaDriver, List<Long> excluded, List<String> kept) {
        return freeNodes.lockReplacement(poolId, window, cudaDriver, excluded, kept);
    }

    /**
     * Locks one of the pool's hot spares free for the whole window (with the CUDA driver, not excluded) and takes
     * it out of the spares; never waits: a spare another transaction holds is skipped, so two replacements at once
     * never get the same one. Empty when none is left.
     */
    public Optional<Locked> takeSpare(
            UUID poolId, TimeWindow window, @Nullable String cudaDriver, List<Long> excluded) {
        Optional<Locked> spare = jdbc.sql("""
				SELECT n.id, n.hostname FROM node n
				WHERE n.pool_id = :pool AND n.spare AND n.state = 'AVAILABLE' AND NOT (n.id = ANY(:excluded))
				  AND (CAST(:driver AS text) IS NULL OR CAST(:driver AS text) = ANY(n.cuda_drivers))
				  AND EXISTS (SELECT 1 FROM free_gap g WHERE g.node_id = n.id AND g.during @> """ + WINDOW + """
				)
				ORDER BY n.id DESC
				LIMIT 1
				FOR NO KEY UPDATE OF n SKIP LOCKED""")
                .param("pool", poolId)
                .param("start", ts(window.start()))
                .param("end", ts(window.end()))
                .param("driver", cudaDriver)
                .param("excluded", excluded.toArray(Long[]::new))
                .query((rs, n) -> new Locked(rs.getLong(1), rs.getString(2)))
                .optional();
        spare.ifPresent(taken -> jdbc.sql("UPDATE node SET spare = false WHERE id = ?")
                .param(taken.nodeId())
                .update());
        return spare;
    }

    /** Locks the given nodes, waiting for other holders, in id order so that two lockers cannot deadlock. */
    public List<String> lockNodes(List<Long> nodeIds) {
        return jdbc.sql("SELECT state FROM node WHERE id = ANY(?) ORDER BY id FOR NO KEY UPDATE")
                .param(nodeIds.toArray(Long[]::new))
                .query(String.class)
                .list();
    }

    /**
     * Takes this booking's turn in the pool (a transaction-scoped advisory lock on the pool). The pool's bookings
     * share it: they run side by side, and pass by a node or victim another of them holds. A guaranteed booking that
     * lost such races before takes it {@code alone}: it waits for the bookings under way in the pool to end, and the
     * ones that come after it wait for it, so that what it reads and plans (victims, moves, free nodes) does not change
     * before it locks it. PostgreSQL queues a shared request behind a waiting exclusive one, so it cannot starve.
     */
    public void turnInPool(UUID poolId, boolean alone) {
        jdbc.sql("SELECT " + (alone ? "pg_advisory_xact_lock" : "pg_advisory_xact_lock_shared")
                        + "(hashtextextended(CAST(? AS text), 7)) IS NULL")
                .param(poolId)
                .query(Boolean.class)
                .single();
    }

    /** Locks those of the nodes no other transaction holds, in id order, never waiting; answers them. */
    public List<Long> lockNodesSkipLocked(List<Long> nodeIds) {
        return jdbc.sql("SELECT id FROM node WHERE id = ANY(?) ORDER BY id FOR NO KEY UPDATE SKIP LOCKED")
                .param(nodeIds.toArray(Long[]::new))
                .query(Long.class)
                .list();
    }

    /** Which of the nodes have one free gap holding the whole window (read after locking them). */
    public List<Long> freeFor(List<Long> nodeIds, TimeWindow window) {
        return jdbc.sql(FREE_FOR)
                .param("nodes", nodeIds.toArray(Long[]::new))
                .param("start", ts(window.start()))
                .param("end", ts(window.end()))
                .query(Long.class)
                .list();
    }

    /**
     * Cuts the window out of each node's gap that holds it, keeping what is left on either side; answers the gaps
     * as they were (for the calendar).
     */
    public List<Gap> takeFromGaps(List<Long> nodeIds, TimeWindow window) {
        return jdbc.sql(TAKE_FROM_GAPS)
                .param("nodes", nodeIds.toArray(Long[]::new))
                .param("start", ts(window.start()))
                .param("end", ts(window.end()))
                .query(AllocationRepository::gap)
                .list();
    }

    /** Gives the window back to each node, merged with the gaps touching it; answers the merged gaps. */
    public List<Gap> returnToGaps(List<Long> nodeIds, UUID poolId, TimeWindow window) {
        return jdbc.sql(RETURN_TO_GAPS)
                .param("nodes", nodeIds.toArray(Long[]::new))
                .param("pool", poolId)
                .param("start", ts(window.start()))
                .param("end", ts(window.end()))
                .query(AllocationRepository::gap)
                .list();
    }

    /**
     * Ends the reservation's live allocations at {@code from}: each keeps what it held before then (retired when
     * that is nothing) and gives the rest back to its node's gaps. Per allocation, so a node replaced inside the
     * window, whose allocation already ends earlier, gives back only what it still held, and a replacement that
     * joined late keeps nothing from before it joined. Answers, for each window given back, the gaps it was merged
     * into (for {@link dev.allot.booking.calendar.CapacityCalendarRepository#returned}). Locks the reservation's nodes first (a
     * no-op for those the caller already holds), under the reservation's lock, so the order stays reservation, then
     * nodes.
     */
    public Map<TimeWindow, List<Gap>> endAt(UUID reservationId, UUID poolId, Instant from) {
        lockNodes(nodesOf(reservationId));
        List<Map.Entry<Long, TimeWindow>> freed = jdbc.sql("""
				WITH live AS (
				    SELECT id, during FROM allocation
				    WHERE reservation_id = :reservation AND active AND upper(during) > CAST(:from AS timestamptz)
				)
				UPDATE allocation a SET active = lower(l.during) < CAST(:from AS timestamptz),
				    during = CASE WHEN lower(l.during) < CAST(:from AS timestamptz)
				                  THEN tstzrange(lower(l.during), CAST(:from AS timestamptz), '[)') ELSE l.during END
				FROM live l WHERE a.id = l.id
				RETURNING a.node_id, greatest(lower(l.during), CAST(:from AS timestamptz)), upper(l.during)""")
                .param("reservation", reservationId)
                .param("from", ts(from))
                .query((rs, row) -> Map.entry(
                        rs.getLong(1),
                        new TimeWindow(
                                rs.getTimestamp(2).toInstant(),
                                rs.getTimestamp(3).toInstant())))
                .list();
        Map<TimeWindow, List<Long>> byWindow = new LinkedHashMap<>();
        freed.forEach(f ->
                byWindow.computeIfAbsent(f.getValue(), w -> new ArrayList<>()).add(f.getKey()));
        Map<TimeWindow, List<Gap>> gaps = new LinkedHashMap<>();
        byWindow.forEach((window, nodes) -> gaps.put(window, returnToGaps(nodes, poolId, window)));
        return gaps;
    }

    /**
     * The nodes holding the reservation at its end ({@code end}): its live allocations that run to it, so not a
     * node replaced inside the window.
     */
    public List<Long> nodesAt(UUID reservationId, Instant end) {
        return jdbc.sql("""
				SELECT node_id FROM allocation
				WHERE reservation_id = ? AND active AND upper(during) = ? ORDER BY node_id""").params(reservationId, ts(end)).query(Long.class).list();
    }

    /** Moves the end of the reservation's live allocations that run to {@code end} to {@code newEnd}. */
    public void extendTo(UUID reservationId, Instant end, Instant newEnd) {
        jdbc.sql("""
				UPDATE allocation SET during = tstzrange(lower(during), CAST(:newEnd AS timestamptz), '[)')
				WHERE reservation_id = :reservation AND active AND upper(during) = CAST(:end AS timestamptz)""")
                .param("reservation", reservationId)
                .param("end", ts(end))
                .param("newEnd", ts(newEnd))
                .update();
    }

    public void allocate(UUID reservationId, UUID poolId, List<Long> nodeIds, TimeWindow window) {
        jdbc.sql(ALLOCATE)
                .param("reservation", reservationId)
                .param("nodes", nodeIds.toArray(Long[]::new))
                .param("pool", poolId)
                .param("start", ts(window.start()))
                .param("end", ts(window.end()))
                .update();
    }

    /** The ids of the pool's nodes with these hostnames. */
    public List<Long> nodeIds(UUID poolId, List<String> hostnames) {
        return jdbc.sql("SELECT id FROM node WHERE pool_id = ? AND hostname = ANY(?) ORDER BY id")
                .params(poolId, hostnames.toArray(String[]::new))
                .query(Long.class)
                .list();
    }

    /**
     * Ends one node's live allocation of the reservation at {@code until}, or retires it when nothing of it is
     * kept ({@code until} at or before its start).
     */
    public void release(UUID reservationId, long nodeId, Instant until) {
        jdbc.sql("""
				UPDATE allocation SET active = lower(during) < CAST(:until AS timestamptz),
				    during = CASE WHEN lower(during) < CAST(:until AS timestamptz)
				                  THEN tstzrange(lower(during), CAST(:until AS timestamptz), '[)') ELSE during END
				WHERE reservation_id = :reservation AND node_id = :node AND active""")
                .param("reservation", reservationId)
                .param("node", nodeId)
                .param("until", ts(until))
                .update();
    }

    /** The reservation's live allocations, by start then hostname. */
    public List<Holding> holdings(UUID reservationId) {
        return jdbc.sql("""
				SELECT a.reservation_id, n.hostname, lower(a.during), upper(a.during) FROM allocation a
				JOIN node n ON n.id = a.node_id WHERE a.reservation_id = ? AND a.active
				ORDER BY lower(a.during), n.hostname""")
                .param(reservationId)
                .query(AllocationRepository::holding)
                .list();
    }

    /**
     * Other reservations' live allocations, on the nodes this reservation holds, that still run at {@code at} and
     * began before this reservation's allocation of the node: whoever must let go of a node before this reservation
     * can have it (a preempted reservation keeping its nodes for its notice, or one that ends at this one's start).
     */
    public List<Holding> heldBefore(UUID reservationId, Instant at) {
        return jdbc.sql("""
				SELECT o.reservation_id, n.hostname, lower(o.during), upper(o.during) FROM allocation mine
				JOIN allocation o ON o.node_id = mine.node_id AND o.active AND o.reservation_id <> mine.reservation_id
				    AND upper(o.during) > ? AND lower(o.during) < lower(mine.during)
				JOIN node n ON n.id = mine.node_id
				WHERE mine.reservation_id = ? AND mine.active AND upper(mine.during) > ?
				ORDER BY upper(o.during), n.hostname""")
                .params(ts(at), reservationId, ts(at))
                .query(AllocationRepository::holding)
                .list();
    }

    /** The reservations whose live allocations hold the node at {@code since} or later. */
    public List<UUID> holdersOf(String hostname, Instant since) {
        return jdbc.sql("""
				SELECT DISTINCT a.reservation_id FROM allocation a JOIN node n ON n.id = a.node_id
				WHERE n.hostname = ? AND a.active AND upper(a.during) > ? ORDER BY 1""").params(hostname, ts(since)).query(UUID.class).list();
    }

    /**
     * The nodes the reservation held (or was to hold) and let go of before its end: replaced, before or inside its
     * window. A reservation that ended early as a whole (cancelled, preempted) let go of none of them this way.
     */
    public List<String> nodesLetGo(UUID reservationId) {
        return jdbc.sql("""
				WITH mine AS (SELECT node_id, during, active FROM allocation WHERE reservation_id = ?),
				     held AS (SELECT max(upper(during)) AS until FROM mine WHERE active)
				SELECT n.hostname FROM mine JOIN node n ON n.id = mine.node_id, held
				GROUP BY n.hostname, held.until
				HAVING NOT bool_or(mine.active AND upper(mine.during) >= held.until)
				ORDER BY 1""").param(reservationId).query(String.class).list();
    }

    private static Holding holding(ResultSet rs, int row) throws SQLException {
        return new Holding(
                rs.getObject(1, UUID.class),
                rs.getString(2),
                rs.getTimestamp(3).toInstant(),
                rs.getTimestamp(4).toInstant());
    }

    /** The nodes of the reservation's live allocations, a node replaced inside its window included. */
    public List<Long> nodesOf(UUID reservationId) {
        return jdbc.sql("SELECT node_id FROM allocation WHERE reservation_id = ? AND active ORDER BY node_id")
                .param(reservationId)
                .query(Long.class)
                .list();
    }

    private static Gap gap(ResultSet rs, int row) throws SQLException {
        Timestamp from = rs.getTimestamp(2);
        Timestamp to = rs.getTimestamp(3);
        return new Gap(rs.getLong(1), from == null ? null : from.toInstant(), to == null ? null : to.toInstant());
    }

    static Timestamp ts(Instant instant) {
        return Timestamp.from(instant);
    }
}
