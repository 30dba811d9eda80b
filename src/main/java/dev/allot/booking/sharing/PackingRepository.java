package dev.allot.booking.sharing;

import dev.allot.booking.sharing.Packing.Movable;
import dev.allot.booking.sharing.Packing.Room;
import dev.allot.shared.TimeWindow;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The rows repacking plans on, read without locking ({@link Repacking}): the reservations that may move, the nodes
 * touching the horizon, each node's free windows, and what reclaimable reservations hold.
 */
@Repository
class PackingRepository {

    /** Above this many reservations in the way, repacking is not tried (the plan is computed in memory). */
    static final int MOST_MOVABLE = 500;

    private final JdbcClient jdbc;

    PackingRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Adds to each room the windows the reclaimable reservations hold on it from when they would let go, within the
     * horizon.
     */
    void claims(Map<Long, Room> rooms, TimeWindow horizon, Map<UUID, Repacking.Reclaimable> reclaimable) {
        if (reclaimable.isEmpty()) {
            return;
        }
        jdbc.sql("""
				SELECT reservation_id, node_id, lower(during), upper(during) FROM allocation
				WHERE reservation_id = ANY(?) AND active AND node_id = ANY(?)""")
                .params(
                        reclaimable.keySet().toArray(UUID[]::new),
                        rooms.keySet().toArray(Long[]::new))
                .query((rs, row) -> {
                    UUID victim = rs.getObject(1, UUID.class);
                    Repacking.Reclaimable r =
                            Objects.requireNonNull(reclaimable.get(victim), "the query asked for reclaimable ones");
                    Instant from = latest(rs.getTimestamp(3).toInstant(), r.freedFrom(), horizon.start());
                    Instant until = rs.getTimestamp(4).toInstant();
                    Instant to = until.isBefore(horizon.end()) ? until : horizon.end();
                    if (from.isBefore(to)) {
                        Packing.room(rooms, rs.getLong(2))
                                .claims()
                                .add(new Packing.Claim(victim, new TimeWindow(from, to), r.lost()));
                    }
                    return row;
                })
                .list();
    }

    private static Instant latest(Instant a, Instant b, Instant c) {
        Instant ab = a.isAfter(b) ? a : b;
        return ab.isAfter(c) ? ab : c;
    }

    /** One node of a reservation that may move. */
    private record Held(
            UUID id,
            UUID tenantId,
            TimeWindow window,
            @Nullable String cudaDriver,
            long node) {}

    /**
     * The live reservations of the pool overlapping the window that may move: not started, not being built, starting
     * after {@code settled}, each node holding it for its whole window. Null when there are more than
     * {@link #MOST_MOVABLE}. One lookup of the allocations index per node of the pool.
     */
    @Nullable
    List<Movable> movable(UUID poolId, TimeWindow window, Instant settled) {
        int most = MOST_MOVABLE * 8;
        List<Held> held = jdbc.sql("""
				SELECT r.id, r.tenant_id, r.starts_at, r.ends_at, r.cluster ->> 'cudaDriver', a.node_id
				FROM node n
				JOIN allocation a ON a.node_id = n.id AND a.active AND a.during && tstzrange(?, ?, '[)')
				JOIN reservation r ON r.id = a.reservation_id
				WHERE n.pool_id = ? AND r.cancelled_at IS NULL AND r.lifecycle_status IS NULL AND r.starts_at > ?
				  AND NOT EXISTS (SELECT 1 FROM cluster c WHERE c.reservation_id = r.id AND c.state <> 'PENDING')
				  AND lower(a.during) = r.starts_at AND upper(a.during) = r.ends_at
				LIMIT ?""")
                .params(ts(window.start()), ts(window.end()), poolId, ts(settled), most + 1)
                .query((rs, row) -> new Held(
                        rs.getObject(1, UUID.class),
                        rs.getObject(2, UUID.class),
                        new TimeWindow(
                                rs.getTimestamp(3).toInstant(),
                                rs.getTimestamp(4).toInstant()),
                        rs.getString(5),
                        rs.getLong(6)))
                .list();
        if (held.size() > most) {
            return null;
        }
        Map<UUID, List<Held>> byReservation = new LinkedHashMap<>();
        held.forEach(h ->
                byReservation.computeIfAbsent(h.id(), id -> new ArrayList<>()).add(h));
        if (byReservation.size() > MOST_MOVABLE) {
            return null;
        }
        return byReservation.values().stream()
                .map(nodes -> {
                    Held first = nodes.getFirst();
                    return new Movable(
                            first.id(),
                            first.tenantId(),
                            first.window(),
                            nodes.stream().map(Held::node).sorted().toList(),
                            first.cudaDriver());
                })
                .toList();
    }

    /**
     * The available, non-spare nodes of the pool free or holding a reservation within the horizon, but the chosen.
     * One probe of each index per node: without the {@code OFFSET 0} PostgreSQL may turn the second test into one
     * scan of every allocation of the fleet overlapping the horizon (174 ms against 12 ms on the benchmark's fleet).
     */
    List<Long> nodesTouching(UUID poolId, TimeWindow horizon, List<Long> chosen) {
        return jdbc.sql("""
				SELECT n.id FROM node n
				WHERE n.pool_id = ? AND n.state = 'AVAILABLE' AND NOT n.spare AND NOT (n.id = ANY(?))
				  AND (EXISTS (SELECT 1 FROM free_gap g WHERE g.node_id = n.id AND g.during && tstzrange(?, ?, '[)'))
				       OR EXISTS (SELECT 1 FROM allocation a WHERE a.node_id = n.id AND a.active
				                    AND a.during && tstzrange(?, ?, '[)') OFFSET 0))
				ORDER BY n.id""")
                .params(
                        poolId,
                        chosen.toArray(Long[]::new),
                        ts(horizon.start()),
                        ts(horizon.end()),
                        ts(horizon.start()),
                        ts(horizon.end()))
                .query(Long.class)
                .list();
    }

    /**
     * Each locked node with its free windows, cut to the horizon (a gap may run without end), the movable reservations'
     * windows on it added.
     */
    Map<Long, Room> rooms(UUID poolId, Set<Long> nodeIds, TimeWindow horizon, List<Movable> moving) {
        Map<Long, Room> rooms = new HashMap<>();
        jdbc.sql("""
				SELECT id, hostname, ib_block, cuda_drivers FROM node
				WHERE id = ANY(?) AND pool_id = ? AND state = 'AVAILABLE' AND NOT spare""")
                .params(nodeIds.toArray(Long[]::new), poolId)
                .query((rs, row) -> rooms.put(
                        rs.getLong(1),
                        new Room(
                                rs.getLong(1),
                                rs.getString(2),
                                rs.getString(3),
                                Set.of((String[]) rs.getArray(4).getArray()),
                                new ArrayList<>())))
                .list();
        Map<Long, List<TimeWindow>> windows = new HashMap<>();
        jdbc.sql("""
				SELECT node_id, greatest(lower(during), CAST(:start AS timestamptz)),
				       least(upper(during), CAST(:end AS timestamptz))
				FROM free_gap WHERE node_id = ANY(:nodes) AND during && tstzrange(:start, :end, '[)')""")
                .param("nodes", nodeIds.toArray(Long[]::new))
                .param("start", ts(horizon.start()))
                .param("end", ts(horizon.end()))
                .query((rs, row) -> windows.computeIfAbsent(rs.getLong(1), n -> new ArrayList<>())
                        .add(new TimeWindow(
                                rs.getTimestamp(2).toInstant(),
                                rs.getTimestamp(3).toInstant())))
                .list();
        moving.forEach(m -> m.nodes()
                .forEach(node ->
                        windows.computeIfAbsent(node, n -> new ArrayList<>()).add(m.window())));
        windows.forEach((node, free) -> {
            Room room = rooms.get(node);
            if (room != null) {
                room.free().addAll(Packing.merged(free));
            }
        });
        return rooms;
    }

    private static Timestamp ts(Instant instant) {
        return Timestamp.from(instant);
    }
}
