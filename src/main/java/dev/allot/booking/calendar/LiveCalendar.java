package dev.allot.booking.calendar;

import dev.allot.shared.changes.PgListen;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * This replica's copy of the capacity calendar, so that a calendar read sums nothing in the database. A pool is
 * read from the aggregate on its first request, then kept current from the deltas each committed change
 * announces on {@value CalendarDelta#CHANNEL}. Deltas that arrive while a pool loads are held and applied unless
 * the load's snapshot already saw their transaction. LISTEN starts before any load, so no change is missed;
 * when the LISTEN connection drops, every copy is dropped (reads go to the database) until it is back, and pools
 * then load afresh: the resync.
 *
 * <p>A change made on this replica is applied as its transaction commits, not when its notification comes back,
 * so a client reads its own booking in the calendar at once, as it did when the calendar was read from the
 * database; whichever of the two arrives second is skipped.
 */
@Component
class LiveCalendar implements SmartLifecycle {

    private enum Ours {
        PENDING,
        NOTIFIED,
        APPLIED
    }

    private final JdbcClient jdbc;

    private final TransactionTemplate snapshotReads;

    private final Map<UUID, PoolCounts> pools = new ConcurrentHashMap<>();

    /** Deltas received while a pool loads; guarded by {@code this}. */
    private final Map<UUID, List<CalendarDelta>> loading = new HashMap<>();

    /** This replica's changes between their statement and both their commit and their notification. */
    private final Map<CalendarDelta.Id, Ours> ours = new HashMap<>();

    private volatile boolean listening;

    private final PgListen listen;

    /** Counts connection losses, so a load that spans one is thrown away. */
    private long epoch;

    LiveCalendar(JdbcClient jdbc, DataSource dataSource, TransactionTemplate transactions) {
        this.jdbc = jdbc;
        this.listen = new PgListen(dataSource, CalendarDelta.CHANNEL, new PgListen.Handler() {

            @Override
            public void accept(String payload) {
                received(CalendarDelta.parse(payload));
            }

            @Override
            public void listening() {
                listening = true;
            }

            @Override
            public void lost() {
                LiveCalendar.this.lost();
            }
        });
        this.snapshotReads = new TransactionTemplate(Objects.requireNonNull(transactions.getTransactionManager()));
        this.snapshotReads.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        this.snapshotReads.setReadOnly(true);
        // its own transaction even inside a calendar read's: the snapshot and the sums must be one snapshot
        this.snapshotReads.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    /** Nodes allocated in each hour of {@code [from, to)} (hours with none absent); null when not live. */
    @Nullable
    Map<Instant, Integer> hourly(UUID poolId, Instant from, Instant to) {
        PoolCounts counts = counts(poolId);
        return counts != null ? counts.hourly(from, to) : null;
    }

    /** Nodes allocated in each UTC day of {@code [from, to)}; null when not live. */
    @Nullable
    Map<Instant, Integer> daily(UUID poolId, Instant from, Instant to) {
        PoolCounts counts = counts(poolId);
        return counts != null ? counts.daily(from, to) : null;
    }

    /**
     * A change of this replica, written and announced by the current transaction: applied here when it commits
     * (unless its notification came first), forgotten when it rolls back.
     */
    void changing(CalendarDelta delta) {
        if (!TransactionSynchronizationManager.isSynchronizationActive() || !listening) {
            // not listening, this replica holds no pool (the change's notification, or the load that follows the
            // LISTEN, brings it): nothing to apply, and no notification would come to forget it (the demo seeds
            // before LISTEN starts)
            return;
        }
        if (!delta.reset()) {
            synchronized (this) {
                ours.put(delta.id(), Ours.PENDING);
            }
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCompletion(int status) {
                committed(delta, status == STATUS_COMMITTED);
            }
        });
    }

    private synchronized void committed(CalendarDelta delta, boolean committed) {
        if (delta.reset()) {
            if (committed) {
                route(delta);
            }
            return;
        }
        Ours state = ours.remove(delta.id());
        if (committed && state == Ours.PENDING) {
            ours.put(delta.id(), Ours.APPLIED);
            route(delta);
        }
    }

    boolean listening() {
        return listening;
    }

    /** Whether this replica holds the pool's calendar in memory. */
    boolean holds(UUID poolId) {
        return pools.containsKey(poolId);
    }

    private @Nullable PoolCounts counts(UUID poolId) {
        PoolCounts counts = pools.get(poolId);
        if (counts != null || !listening) {
            return counts;
        }
        long started;
        synchronized (this) {
            if (pools.containsKey(poolId) || loading.containsKey(poolId)) {
                // another request is loading it: this one reads the database meanwhile
                return pools.get(poolId);
            }
            loading.put(poolId, new ArrayList<>());
            started = epoch;
        }
        Loaded loaded;
        try {
            loaded = snapshotReads.execute(status -> load(poolId));
        } catch (RuntimeException ex) {
            synchronized (this) {
                loading.remove(poolId);
            }
            throw ex;
        }
        synchronized (this) {
            List<CalendarDelta> held = loading.remove(poolId);
            if (held == null || started != epoch || held.stream().anyMatch(CalendarDelta::reset)) {
                return null;
            }
            PoolCounts fresh = new PoolCounts(loaded.hours(), loaded.days());
            held.stream()
                    .filter(delta -> !loaded.snapshot().sees(delta.transaction()))
                    .forEach(fresh::apply);
            pools.put(poolId, fresh);
            return fresh;
        }
    }

    private synchronized void received(CalendarDelta delta) {
        if (!delta.reset()) {
            Ours state = ours.get(delta.id());
            if (state == Ours.APPLIED) {
                ours.remove(delta.id());
                return;
            }
            if (state == Ours.PENDING) {
                // commit is delivering it before this replica's own transaction has finished completing
                ours.put(delta.id(), Ours.NOTIFIED);
            }
        }
        route(delta);
    }

    /** Applies a delta to the pool's copy, or holds it while the pool loads. */
    private void route(CalendarDelta delta) {
        List<CalendarDelta> held = loading.get(delta.pool());
        if (held != null) {
            held.add(delta);
        } else if (delta.reset()) {
            pools.remove(delta.pool());
        } else {
            PoolCounts counts = pools.get(delta.pool());
            if (counts != null) {
                counts.apply(delta);
            }
        }
    }

    private synchronized void lost() {
        listening = false;
        epoch++;
        pools.clear();
        loading.clear();
        // what was applied or notified is gone with the copies; a change still in flight is applied on commit
        ours.values().removeIf(state -> state != Ours.PENDING);
    }

    /** A pool's whole calendar as of one snapshot, and that snapshot. */
    private record Loaded(Snapshot snapshot, Map<Instant, Integer> hours, Map<Instant, Integer> days) {}

    /** Runs in one REPEATABLE READ transaction, so the snapshot is the one the sums were read in. */
    private Loaded load(UUID poolId) {
        Snapshot snapshot = Snapshot.parse(jdbc.sql("SELECT CAST(pg_current_snapshot() AS text)")
                .query(String.class)
                .single());
        Map<Instant, Integer> hours = new TreeMap<>();
        jdbc.sql("SELECT hour, sum(allocated_nodes) FROM pool_hour WHERE pool_id = ? GROUP BY hour")
                .param(poolId)
                .query((rs, n) -> hours.put(rs.getTimestamp(1).toInstant(), rs.getInt(2)))
                .list();
        Map<Instant, Integer> days = new TreeMap<>();
        jdbc.sql("SELECT day, sum(allocated_nodes) FROM pool_day WHERE pool_id = ? GROUP BY day")
                .param(poolId)
                .query((rs, n) -> days.put(rs.getTimestamp(1).toInstant(), rs.getInt(2)))
                .list();
        return new Loaded(snapshot, hours, days);
    }

    @Override
    public void start() {
        listen.start("live-calendar-listen");
    }

    @Override
    public void stop() {
        listen.stop();
    }

    @Override
    public boolean isRunning() {
        return listen.isRunning();
    }
}
