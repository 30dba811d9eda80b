package dev.allot.booking.allocation;

import dev.allot.shared.TimeWindow;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * What the free gaps and allocations say about room, read without locks: how many nodes are free or could be
 * reclaimed for a window, who holds them, and the earliest starts where enough are free. Quotes, refusals,
 * reclaiming, the queue and the earliest-fit search read it; changing gaps and allocations is
 * {@link AllocationRepository}'s, under the nodes' row locks.
 */
@Repository
public class FreeCapacityRepository {

    private final JdbcClient jdbc;

    FreeCapacityRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * How many available nodes of the pool hold, in the window, nothing but other tenants' live preemptible
     * reservations (or nothing at all): the room reclaiming could make there for {@code tenantId}. One lookup of the
     * allocations index per node of the pool; read only for a refused guaranteed booking.
     */
    public int countReclaimable(UUID poolId, UUID tenantId, TimeWindow window, @Nullable String cudaDriver) {
        return jdbc.sql("""
				SELECT count(*) FROM node n
				WHERE n.pool_id = :pool AND n.state = 'AVAILABLE' AND NOT n.spare
				  AND (CAST(:driver AS text) IS NULL OR CAST(:driver AS text) = ANY(n.cuda_drivers))
				  AND NOT EXISTS (
				      SELECT 1 FROM allocation a JOIN reservation r ON r.id = a.reservation_id
				      WHERE a.node_id = n.id AND a.active AND a.during && (""" + AllocationRepository.WINDOW + """
				)       AND NOT (r.preemptible AND r.tenant_id <> :tenant AND r.cancelled_at IS NULL
				                 AND r.lifecycle_status IS NULL))""")
                .param("pool", poolId)
                .param("tenant", tenantId)
                .param("start", AllocationRepository.ts(window.start()))
                .param("end", AllocationRepository.ts(window.end()))
                .param("driver", cudaDriver)
                .query(Integer.class)
                .single();
    }

    /**
     * For each available node of the pool (with the CUDA driver), the reservations whose live allocations hold it
     * somewhere in the window: none for a node free for the whole window. Read only for a guaranteed booking that
     * found too few nodes free, to choose which reservations to preempt ({@link dev.allot.booking.sharing.Reclaiming}).
     */
    public Map<Long, List<UUID>> holdersIn(UUID poolId, TimeWindow window, @Nullable String cudaDriver) {
        Map<Long, List<UUID>> holders = new LinkedHashMap<>();
        jdbc.sql("""
				SELECT n.id, a.reservation_id FROM node n
				LEFT JOIN allocation a ON a.node_id = n.id AND a.active AND a.during && (""" + AllocationRepository.WINDOW + """
				)
				WHERE n.pool_id = :pool AND n.state = 'AVAILABLE' AND NOT n.spare
				  AND (CAST(:driver AS text) IS NULL OR CAST(:driver AS text) = ANY(n.cuda_drivers))
				ORDER BY n.id""")
                .param("pool", poolId)
                .param("start", AllocationRepository.ts(window.start()))
                .param("end", AllocationRepository.ts(window.end()))
                .param("driver", cudaDriver)
                .query((rs, row) -> {
                    List<UUID> of = holders.computeIfAbsent(rs.getLong(1), node -> new ArrayList<>());
                    UUID reservation = rs.getObject(2, UUID.class);
                    if (reservation != null && !of.contains(reservation)) {
                        of.add(reservation);
                    }
                    return row;
                })
                .list();
        return holders;
    }

    /** How many available nodes of the pool are free for the whole window. */
    public int countFree(UUID poolId, TimeWindow window, @Nullable String cudaDriver) {
        return jdbc.sql("""
				SELECT count(*) FROM free_gap g JOIN node n ON n.id = g.node_id
				WHERE g.pool_id = :pool AND g.during @> tstzrange(CAST(:start AS timestamptz), CAST(:end AS timestamptz), '[)')
				  AND n.state = 'AVAILABLE' AND NOT n.spare
				  AND (CAST(:driver AS text) IS NULL OR CAST(:driver AS text) = ANY(n.cuda_drivers))""")
                .param("pool", poolId)
                .param("start", AllocationRepository.ts(window.start()))
                .param("end", AllocationRepository.ts(window.end()))
                .param("driver", cudaDriver)
                .query(Integer.class)
                .single();
    }

    /**
     * The earliest starts from {@code after} on where {@code count} available nodes are free for the duration
     * (see {@link EarliestFit}), in order, found as they are asked for: the gaps holding the first window, then the
     * gaps starting after {@code after}, read a day, two days, four days... at a time in order of their start until
     * the next start is decided, no allocation of the pool ends later (its last hour in the calendar), or the gaps
     * start at {@code until} or later. Each read is one index lookup of the gaps overlapping the
     * stretch, so the work grows with the pool's nodes and how far ahead the answer is, not with its history.
     */
    public Iterator<Instant> earliestStarts(UUID poolId, int count, Duration duration, Instant after, Instant until) {
        EarliestFit fit = new EarliestFit(count, duration, Integer.MAX_VALUE);
        // a gap ending before after + duration holds no window from after on: only those holding the first are read
        fit.holding(after, gapsHolding(poolId, duration, after));
        return new StretchReads(poolId, duration, fit, after, horizon(poolId, after, until));
    }

    /** The free gaps of available nodes of the pool that hold the window of {@code duration} from {@code after}. */
    private List<EarliestFit.Gap> gapsHolding(UUID poolId, Duration duration, Instant after) {
        return jdbc.sql("""
				SELECT lower(g.during), upper(g.during) FROM free_gap g JOIN node n ON n.id = g.node_id
				WHERE g.pool_id = :pool AND g.during @> tstzrange(CAST(:after AS timestamptz), CAST(:end AS timestamptz), '[)')
				  AND n.state = 'AVAILABLE' AND NOT n.spare""")
                .param("pool", poolId)
                .param("after", AllocationRepository.ts(after))
                .param("end", AllocationRepository.ts(after.plus(duration)))
                .query((rs, n) -> new EarliestFit.Gap(instant(rs.getTimestamp(1)), instant(rs.getTimestamp(2))))
                .list();
    }

    /** Where the search for starts ends: the end of the pool's last hour in the calendar, at {@code until} the latest. */
    private Instant horizon(UUID poolId, Instant after, Instant until) {
        return jdbc.sql("SELECT max(hour) FROM pool_hour WHERE pool_id = ?")
                .param(poolId)
                .query(Timestamp.class)
                .optional()
                .map(Timestamp::toInstant)
                .map(last -> last.plus(Duration.ofHours(1)))
                .map(last -> last.isBefore(until) ? last : until)
                .orElse(after);
    }

    /**
     * The earliest starts as they are asked for: the gaps starting after {@code from} read a stretch at a time, a day,
     * two days, four days..., until the next start is decided or the horizon is reached.
     */
    private final class StretchReads implements Iterator<Instant> {

        private final UUID poolId;

        private final Duration duration;

        private final EarliestFit fit;

        private final Instant horizon;

        private int taken;

        private Instant from;

        private Duration stretch = Duration.ofDays(1);

        StretchReads(UUID poolId, Duration duration, EarliestFit fit, Instant after, Instant horizon) {
            this.poolId = poolId;
            this.duration = duration;
            this.fit = fit;
            this.from = after;
            this.horizon = horizon;
        }

        @Override
        public boolean hasNext() {
            while (fit.found() <= taken && !fit.finished()) {
                if (!from.isBefore(horizon)) {
                    fit.finish();
                } else {
                    readStretch();
                }
            }
            return fit.found() > taken;
        }

        @Override
        public Instant next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return fit.start(taken++);
        }

        private void readStretch() {
            Instant to = from.plus(stretch);
            // gaps shorter than the duration hold no window: left out (the sweep would drop them)
            jdbc.sql("""
						SELECT lower(g.during), upper(g.during) FROM free_gap g
						WHERE g.pool_id = :pool AND lower(g.during) > CAST(:from AS timestamptz)
						  AND lower(g.during) <= CAST(:to AS timestamptz)
						  AND (upper(g.during) IS NULL OR upper(g.during) >= lower(g.during) + CAST(:duration AS interval))
						  AND EXISTS (SELECT 1 FROM node n WHERE n.id = g.node_id AND n.state = 'AVAILABLE' AND NOT n.spare)
						ORDER BY lower(g.during)""")
                    .param("pool", poolId)
                    .param("from", AllocationRepository.ts(from))
                    .param("to", AllocationRepository.ts(to))
                    .param("duration", duration.toSeconds() + " seconds")
                    .query((rs, n) -> {
                        fit.next(rs.getTimestamp(1).toInstant(), instant(rs.getTimestamp(2)));
                        return n;
                    })
                    .list();
            from = to;
            if (stretch.compareTo(Duration.ofDays(32)) < 0) {
                stretch = stretch.multipliedBy(2);
            }
        }
    }

    private static @Nullable Instant instant(@Nullable Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
