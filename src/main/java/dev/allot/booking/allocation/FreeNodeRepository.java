package dev.allot.booking.allocation;

import dev.allot.shared.TimeWindow;
import dev.allot.shared.changes.ReadCache;
import dev.allot.shared.changes.TableChanges;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Finding free nodes for a booking or a replacement in {@link NodeChoice}'s order (a pool's InfiniBand blocks a few
 * at a time, through the gaps index) and locking them. What is done with the nodes once locked (their gaps, the
 * allocations) is {@link AllocationRepository}'s.
 */
@Repository
public class FreeNodeRepository {

    /*
     * The statements a booking runs here, public so that the benchmark's JDBC mode runs these very texts (issue 32).
     */

    /** The available nodes of {@code :blocks} of {@code :pool} free for the whole window, with their slack. */
    public static final String FREE_IN = """
				SELECT n.id, n.hostname, g.ib_block, n.rack,
				       least(extract(epoch FROM (CAST(:start AS timestamptz) - lower(g.during))), 1e9)
				     + least(extract(epoch FROM (upper(g.during) - CAST(:end AS timestamptz))), 1e9) AS slack
				FROM free_gap g CROSS JOIN LATERAL (
				    -- each gap's node by its key (OFFSET 0 keeps this a lookup: as a plain join the generic plan of
				    -- the prepared statement hashed every node of the fleet, 5-20 ms at 10,000 nodes)
				    SELECT n.id, n.hostname, n.rack FROM node n
				    WHERE n.id = g.node_id AND n.state = 'AVAILABLE' AND NOT n.spare AND NOT (n.id = ANY(:excluded))
				      AND (CAST(:driver AS text) IS NULL OR CAST(:driver AS text) = ANY(n.cuda_drivers))
				    OFFSET 0) n
				WHERE g.pool_id = :pool AND g.ib_block = ANY(:blocks) AND g.during @> """ + AllocationRepository.WINDOW + """
				ORDER BY g.ib_block, n.id""";

    /** Locks the first {@code :count} of {@code :nodes}, in order, that no one holds and are still available. */
    public static final String LOCK_FIRST = """
				SELECT n.id, n.hostname FROM unnest(CAST(:nodes AS bigint[])) WITH ORDINALITY AS c(id, position)
				JOIN node n ON n.id = c.id
				WHERE n.state = 'AVAILABLE' AND NOT n.spare
				ORDER BY c.position
				LIMIT :count
				FOR NO KEY UPDATE OF n SKIP LOCKED""";

    private final JdbcClient jdbc;

    private final ReadCache<UUID, List<String>> blocks;

    FreeNodeRepository(JdbcClient jdbc, TableChanges changes) {
        this.jdbc = jdbc;
        this.blocks = changes.cache("pools' InfiniBand blocks", "node");
    }

    /** The pool's InfiniBand blocks in the order a booking searches them. */
    public List<String> blocks(UUID poolId) {
        return blocks.get(
                poolId,
                pool -> jdbc.sql("SELECT DISTINCT ib_block FROM node WHERE pool_id = ? ORDER BY 1")
                        .param(pool)
                        .query(String.class)
                        .list());
    }

    /**
     * The available nodes of some of the pool's blocks that are free for the whole window, in block order: one
     * bitmap scan of the gaps index by pool, block and window (the gaps carry their node's block), so the work grows
     * with the blocks searched and the gaps found there, not with the pool's free nodes or its history.
     */
    List<NodeChoice.Candidate> freeIn(
            UUID poolId, List<String> blockNames, TimeWindow window, @Nullable String cudaDriver, List<Long> excluded) {
        return jdbc.sql(FREE_IN)
                .param("pool", poolId)
                .param("blocks", blockNames.toArray(String[]::new))
                .param("start", AllocationRepository.ts(window.start()))
                .param("end", AllocationRepository.ts(window.end()))
                .param("driver", cudaDriver)
                .param("excluded", excluded.toArray(Long[]::new))
                .query((rs, n) -> new NodeChoice.Candidate(
                        rs.getLong(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getObject(5) == null ? 1e9 : rs.getDouble(5)))
                .list();
    }

    /**
     * Locks up to {@code count} free nodes in the order of {@link NodeChoice}, searching the pool's blocks a few at a
     * time (eight, then 32, then 64) until one holds them, so only the nodes of the blocks searched are read, not
     * every free node of the pool. A node another transaction holds is skipped for the next in that order; never
     * waits. The caller re-reads the gaps of what it locked. {@code blocks} is the pool's {@link #blocks}, which a
     * booking reads before its transaction so that this replica keeps it (a read inside a writing transaction is
     * never kept).
     */
    public List<AllocationRepository.Locked> lockFreeNodes(
            UUID poolId,
            List<String> blocks,
            TimeWindow window,
            @Nullable String cudaDriver,
            int count,
            List<Long> excluded) {
        return lockFirst(preferredFreeNodes(poolId, blocks, window, cudaDriver, count, excluded), count);
    }

    /**
     * As {@link #lockFreeNodes}, but waits for the nodes other transactions hold (in id order, so two waiting
     * bookings queue rather than cross); a deadlock with a booking holding nodes this one waits for is broken by
     * PostgreSQL and the aborted booking runs again ({@code BookingTransactions}). The last resort of a booking that
     * could not lock enough free nodes at once. The caller re-reads the gaps of what it locked.
     */
    public List<AllocationRepository.Locked> lockFreeNodesWaiting(
            UUID poolId,
            List<String> blocks,
            TimeWindow window,
            @Nullable String cudaDriver,
            int count,
            List<Long> excluded) {
        List<Long> preferred = preferredFreeNodes(poolId, blocks, window, cudaDriver, count, excluded);
        if (preferred.isEmpty()) {
            return List.of();
        }
        // the first count in the order of preference (the search answers every free node it read, best first)
        List<Long> candidates = preferred.subList(0, Math.min(count, preferred.size()));
        return jdbc.sql("""
				SELECT n.id, n.hostname FROM node n
				WHERE n.id = ANY(:nodes) AND n.state = 'AVAILABLE' AND NOT n.spare
				ORDER BY n.id
				FOR NO KEY UPDATE OF n""")
                .param("nodes", candidates.toArray(Long[]::new))
                .query((rs, n) -> new AllocationRepository.Locked(rs.getLong(1), rs.getString(2)))
                .list();
    }

    private List<Long> preferredFreeNodes(
            UUID poolId,
            List<String> blocks,
            TimeWindow window,
            @Nullable String driver,
            int count,
            List<Long> excluded) {
        List<NodeChoice.Candidate> searched = new ArrayList<>();
        // eight blocks at first (about 1 ms at 1M reservations), then 32, then 64 at a time
        for (int from = 0, batch = 8; from < blocks.size(); from += batch, batch = Math.min(batch * 4, 64)) {
            List<NodeChoice.Candidate> found = freeIn(
                    poolId, blocks.subList(from, Math.min(from + batch, blocks.size())), window, driver, excluded);
            Optional<List<NodeChoice.Candidate>> oneBlock = NodeChoice.inOneBlock(found, count);
            if (oneBlock.isPresent()) {
                return ids(oneBlock.get());
            }
            searched.addAll(found);
        }
        return ids(NodeChoice.acrossBlocks(searched, count));
    }

    /**
     * Locks one free node to take a failed node's place in a reservation: the nodes of the InfiniBand blocks of the
     * nodes it keeps first, ordered by {@link NodeChoice#near}, then any other free node in a booking's order. Never
     * waits.
     */
    public List<AllocationRepository.Locked> lockReplacement(
            UUID poolId, TimeWindow window, @Nullable String cudaDriver, List<Long> excluded, List<String> kept) {
        List<NodeChoice.Candidate> keptNodes = jdbc.sql("""
				SELECT id, hostname, ib_block, rack, 0 FROM node WHERE pool_id = ? AND hostname = ANY(?) ORDER BY id""")
                .params(poolId, kept.toArray(String[]::new))
                .query((rs, n) ->
                        new NodeChoice.Candidate(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), 0))
                .list();
        List<String> keptBlocks =
                keptNodes.stream().map(NodeChoice.Candidate::block).distinct().toList();
        List<Long> ordered = new ArrayList<>(
                keptBlocks.isEmpty()
                        ? List.of()
                        : ids(NodeChoice.near(freeIn(poolId, keptBlocks, window, cudaDriver, excluded), keptNodes)));
        preferredFreeNodes(poolId, blocks(poolId), window, cudaDriver, 1, excluded).stream()
                .filter(id -> !ordered.contains(id))
                .forEach(ordered::add);
        return lockFirst(ordered, 1);
    }

    private static List<Long> ids(List<NodeChoice.Candidate> candidates) {
        return candidates.stream().map(NodeChoice.Candidate::nodeId).toList();
    }

    /**
     * Locks the first {@code count} of the nodes, in the order given, that no other transaction holds and that are
     * still available; never waits.
     */
    public List<AllocationRepository.Locked> lockFirst(List<Long> ordered, int count) {
        return jdbc.sql(LOCK_FIRST)
                .param("nodes", ordered.toArray(Long[]::new))
                .param("count", count)
                .query((rs, n) -> new AllocationRepository.Locked(rs.getLong(1), rs.getString(2)))
                .list();
    }
}
