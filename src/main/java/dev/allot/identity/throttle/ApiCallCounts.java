package dev.allot.identity.throttle;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The {@code /api/**} budget of each caller ({@code allot.security.rate-limits.api-per-caller}), counted in this
 * replica's memory and shared with the other replicas through PostgreSQL every {@code api-sync} (2 s): an API call
 * writes nothing to the database for its budget.
 * <p>
 * The budget is a fixed window of {@code capacity} calls per {@code period}, the windows aligned to the epoch so that
 * every replica agrees which window a call falls in. A call is answered while the caller's calls in the window as last
 * read (every replica's, this one's included) plus those this replica answered since then stay under the capacity.
 * Each sync adds this replica's new calls to {@code api_call_count} and reads back the totals, all callers in one
 * statement; a caller's first call in a window on this replica reads its total once.
 * <p>
 * One replica counts exactly. With more, a caller may get past the capacity by what the other replicas answered it
 * since this one's last sync: a burst spread over n replicas within one sync interval. A sync that fails keeps its
 * calls for the next.
 */
@Component
public class ApiCallCounts implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ApiCallCounts.class);

    private final Map<Key, Count> counts = new ConcurrentHashMap<>();

    private final JdbcClient jdbc;

    private final RateLimitProperties.Limit limit;

    private final Duration sync;

    private final Clock clock;

    private volatile @Nullable ScheduledExecutorService timer;

    private volatile boolean failing;

    @Autowired
    ApiCallCounts(JdbcClient jdbc, RateLimitProperties limits) {
        this(jdbc, limits.apiPerCaller(), limits.apiSync(), Clock.systemUTC());
    }

    ApiCallCounts(JdbcClient jdbc, RateLimitProperties.Limit limit, Duration sync, Clock clock) {
        this.jdbc = jdbc;
        this.limit = limit;
        this.sync = sync;
        this.clock = clock;
    }

    /** The limit counted, for the 429's words. */
    public RateLimitProperties.Limit limit() {
        return limit;
    }

    /**
     * Spends one call of {@code caller}'s budget.
     * @return empty when the call may go on, otherwise how long until the caller's window ends
     */
    public Optional<Duration> tryAcquire(String caller) {
        Instant now = clock.instant();
        Instant windowStart = windowStart(now);
        Key key = new Key(caller, windowStart);
        Count count = counts.get(key);
        if (count == null) {
            Count first = firstInWindow(key);
            Count raced = counts.putIfAbsent(key, first);
            count = raced != null ? raced : first;
        }
        synchronized (count) {
            if (count.shared + count.unsent >= limit.capacity()) {
                return Optional.of(Duration.between(now, windowStart.plus(limit.period())));
            }
            count.unsent++;
            return Optional.empty();
        }
    }

    /**
     * Adds this replica's calls since the last sync to the shared counts and reads back every caller's total. One sync
     * at a time (the timer's, and the last one at shutdown), so no call is sent twice.
     */
    synchronized void sync() {
        Instant current = windowStart(clock.instant());
        // a window that has ended limits nothing any more: its calls need not be sent
        counts.keySet().removeIf(key -> key.windowStart().isBefore(current));
        List<Map.Entry<Key, Count>> entries = new ArrayList<>(counts.entrySet());
        if (entries.isEmpty()) {
            return;
        }
        List<String> callers = new ArrayList<>(entries.size());
        List<Long> sent = new ArrayList<>(entries.size());
        for (Map.Entry<Key, Count> entry : entries) {
            synchronized (entry.getValue()) {
                callers.add(entry.getKey().caller());
                sent.add(entry.getValue().unsent);
            }
        }
        List<Total> totals;
        try {
            totals = jdbc.sql("""
					WITH sent AS (
					    SELECT caller, calls FROM unnest(CAST(:callers AS text[]), CAST(:calls AS bigint[])) AS s (caller, calls)),
					added AS (
					    INSERT INTO api_call_count (caller, window_start, window_seconds, calls)
					    SELECT caller, :start, :seconds, calls FROM sent WHERE calls > 0
					    ON CONFLICT (caller, window_start, window_seconds)
					    DO UPDATE SET calls = api_call_count.calls + excluded.calls
					    RETURNING caller, calls)
					SELECT caller, calls FROM added
					UNION ALL
					SELECT c.caller, c.calls FROM api_call_count c JOIN sent s ON s.caller = c.caller AND s.calls = 0
					WHERE c.window_start = :start AND c.window_seconds = :seconds""")
                    .param("callers", callers.toArray(String[]::new))
                    .param("calls", sent.toArray(Long[]::new))
                    .param("start", Timestamp.from(current))
                    .param("seconds", limit.period().toSeconds())
                    .query((rs, row) -> new Total(rs.getString(1), rs.getLong(2)))
                    .list();
        } catch (RuntimeException ex) {
            if (!failing) {
                log.warn("Could not share the API call counts (kept for the next try): {}", ex.toString());
            }
            failing = true;
            return;
        }
        failing = false;
        Map<String, Long> byCaller = new HashMap<>();
        totals.forEach(total -> byCaller.put(total.caller(), total.calls()));
        for (int i = 0; i < entries.size(); i++) {
            Count count = entries.get(i).getValue();
            Long total = byCaller.get(callers.get(i));
            synchronized (count) {
                count.unsent -= sent.get(i);
                if (total != null) {
                    count.shared = total;
                } else {
                    count.shared += sent.get(i);
                }
            }
        }
    }

    /** A caller's first call in a window on this replica starts from what the other replicas counted so far. */
    private Count firstInWindow(Key key) {
        Count count = new Count();
        try {
            count.shared = jdbc.sql("""
					SELECT coalesce(sum(calls), 0) FROM api_call_count
					WHERE caller = :caller AND window_start = :start AND window_seconds = :seconds""")
                    .param("caller", key.caller())
                    .param("start", Timestamp.from(key.windowStart()))
                    .param("seconds", limit.period().toSeconds())
                    .query(Long.class)
                    .single();
        } catch (RuntimeException ex) {
            // the database is out of reach: this replica's own count still limits the caller
            log.debug("Could not read the shared API call count of {}", key.caller(), ex);
        }
        return count;
    }

    /** Drops the counts of windows that ended more than a day ago. */
    int purgeEnded() {
        return jdbc.sql("DELETE FROM api_call_count WHERE window_start < :before")
                .param("before", Timestamp.from(clock.instant().minus(Duration.ofDays(1))))
                .update();
    }

    private Instant windowStart(Instant now) {
        long period = limit.period().toMillis();
        return Instant.ofEpochMilli(Math.floorDiv(now.toEpochMilli(), period) * period);
    }

    @Override
    public void start() {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "api-call-counts");
            thread.setDaemon(true);
            return thread;
        });
        this.timer = timer;
        timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        sync();
                    } catch (RuntimeException ex) {
                        log.warn("Sharing the API call counts failed", ex);
                    }
                },
                sync.toMillis(),
                sync.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        ScheduledExecutorService timer = this.timer;
        this.timer = null;
        if (timer != null) {
            timer.shutdownNow();
            // what this replica answered since the last sync still counts for the others
            sync();
        }
    }

    @Override
    public boolean isRunning() {
        return timer != null;
    }

    private record Key(String caller, Instant windowStart) {}

    private record Total(String caller, long calls) {}

    /** A caller's calls in one window: all replicas' as last read, and this one's since then. Guarded by itself. */
    private static final class Count {

        long shared;

        long unsent;
    }
}
