package dev.allot.booking.ui;

import dev.allot.shared.changes.PgListen;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * This replica's end of the live calendar: one connection {@code LISTEN}s to {@value CapacityNotifier#CHANNEL}
 * and every open calendar here gets an event {@code capacity-<pool>} for each pool that changed (coalesced over
 * {@link #COALESCE}, so a burst of bookings costs each browser one refresh of the row). A browser that
 * (re)connects, and every browser after this replica lost its LISTEN connection, gets {@code resync}: it reloads
 * all rows, catching up whatever it may have missed. Each change is announced again {@link #REANNOUNCE} later, for
 * a page that was swapping the row (or all rows) when the first announcement came.
 * <p>
 * A page that drew data read in the same request carries this feed's {@link #mark()} from before that read, and
 * subscribes with it: it then gets only the pools changed since, rather than {@code resync} and a second read of
 * every row. A mark of another replica, or of before this replica last (re)connected, gets {@code resync}.
 */
@Component
class CapacityFeed implements SmartLifecycle {

    static final Duration COALESCE = Duration.ofMillis(150);

    static final Duration REANNOUNCE = Duration.ofSeconds(1);

    static final Duration HEARTBEAT = Duration.ofSeconds(20);

    static final Duration EMITTER_TIMEOUT = Duration.ofMinutes(30);

    /** More pools changed since a page's mark than this, and the page reads all rows again in one read. */
    static final int MAX_REPLAYED = 8;

    private static final Logger log = LoggerFactory.getLogger(CapacityFeed.class);

    private final PgListen listen;

    private final List<SseEmitter> emitters = new CopyOnWriteArrayList<>();

    private final Set<String> pending = new LinkedHashSet<>();

    // guarded by pending: the notifications received while listening in this era, and each pool's last one
    private final Map<String, Long> changedAt = new HashMap<>();

    private long received;

    private @Nullable String era;

    // made anew at each start: a stopped context (the test framework pauses idle ones) may be started again
    private volatile @Nullable ScheduledExecutorService timer;

    /** Set when the LISTEN connection drops: notifications sent while it was away are gone. */
    private volatile boolean lostBefore;

    CapacityFeed(DataSource dataSource) {
        this.listen = new PgListen(dataSource, CapacityNotifier.CHANNEL, new PgListen.Handler() {

            @Override
            public void accept(String pool) {
                synchronized (pending) {
                    pending.add(pool);
                    changedAt.put(pool, ++received);
                }
            }

            @Override
            public void listening() {
                synchronized (pending) {
                    era = UUID.randomUUID().toString();
                    received = 0;
                    changedAt.clear();
                }
                if (lostBefore) {
                    // every open calendar reloads
                    broadcast("resync", "reconnected");
                    lostBefore = false;
                }
            }

            @Override
            public void lost() {
                lostBefore = true;
                synchronized (pending) {
                    // no mark is handed out while notifications may be missed
                    era = null;
                }
            }
        });
    }

    /**
     * Registers a browser. It gets {@code resync} at once, so changes made before it listened are not lost; or,
     * when it names a {@link #mark()} of this feed, an event for each pool changed since.
     */
    SseEmitter subscribe(@Nullable String since) {
        SseEmitter emitter = new SseEmitter(EMITTER_TIMEOUT.toMillis());
        emitter.onCompletion(() -> emitters.remove(emitter));
        emitter.onTimeout(() -> emitters.remove(emitter));
        emitter.onError(error -> emitters.remove(emitter));
        emitters.add(emitter);
        List<String> missed = changedSince(since);
        if (missed == null || missed.size() > MAX_REPLAYED) {
            send(emitter, SseEmitter.event().name("resync").data("connected").reconnectTime(1000));
        } else {
            send(emitter, SseEmitter.event().comment("caught up").reconnectTime(1000));
            missed.forEach(pool ->
                    send(emitter, SseEmitter.event().name("capacity-" + pool).data(pool)));
        }
        return emitter;
    }

    /**
     * Where this feed is now, for a page to take before it reads the data it draws; null while it is not listening
     * (a page subscribing with none gets {@code resync}).
     */
    @Nullable
    String mark() {
        synchronized (pending) {
            return era == null ? null : era + "." + received;
        }
    }

    /** The pools changed since the mark, or null when the mark cannot tell (another replica's, or an older era). */
    private @Nullable List<String> changedSince(@Nullable String mark) {
        if (mark == null) {
            return null;
        }
        int dot = mark.lastIndexOf('.');
        synchronized (pending) {
            if (era == null || dot < 0 || !era.equals(mark.substring(0, dot))) {
                return null;
            }
            long since;
            try {
                since = Long.parseLong(mark.substring(dot + 1));
            } catch (NumberFormatException ex) {
                return null;
            }
            if (since < 0 || since > received) {
                return null;
            }
            return changedAt.entrySet().stream()
                    .filter(e -> e.getValue() > since)
                    .map(Map.Entry::getKey)
                    .toList();
        }
    }

    int subscribers() {
        return emitters.size();
    }

    @Override
    public void start() {
        lostBefore = false;
        listen.start("capacity-feed-listen");
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread timerThread = new Thread(task, "capacity-feed-timer");
            timerThread.setDaemon(true);
            return timerThread;
        });
        this.timer = timer;
        timer.scheduleWithFixedDelay(
                guarded(this::flush), COALESCE.toMillis(), COALESCE.toMillis(), TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(
                guarded(() -> broadcastComment("heartbeat")),
                HEARTBEAT.toSeconds(),
                HEARTBEAT.toSeconds(),
                TimeUnit.SECONDS);
    }

    @Override
    public void stop() {
        listen.stop();
        ScheduledExecutorService timer = this.timer;
        if (timer != null) {
            timer.shutdownNow();
        }
        emitters.forEach(SseEmitter::complete);
        emitters.clear();
    }

    @Override
    public boolean isRunning() {
        return listen.isRunning();
    }

    private void flush() {
        List<String> pools;
        synchronized (pending) {
            if (pending.isEmpty()) {
                return;
            }
            pools = List.copyOf(pending);
            pending.clear();
        }
        for (String pool : pools) {
            broadcast("capacity-" + pool, pool);
        }
        // Announced again a moment later: a page that was swapping that row, or reloading all rows from a read
        // made before the change, missed or overwrote the first announcement; the row is small.
        ScheduledExecutorService timer = this.timer;
        if (timer != null && !timer.isShutdown()) {
            timer.schedule(
                    guarded(() -> pools.forEach(pool -> broadcast("capacity-" + pool, pool))),
                    REANNOUNCE.toMillis(),
                    TimeUnit.MILLISECONDS);
        }
    }

    /** A task of the timer that never throws: one that did would end its schedule, and live updates with it. */
    private static Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException ex) {
                log.warn("Capacity feed: {}", ex.toString());
            }
        };
    }

    private void broadcast(String name, String data) {
        for (SseEmitter emitter : emitters) {
            send(emitter, SseEmitter.event().name(name).data(data));
        }
    }

    private void broadcastComment(String comment) {
        for (SseEmitter emitter : emitters) {
            send(emitter, SseEmitter.event().comment(comment));
        }
    }

    private void send(SseEmitter emitter, SseEmitter.SseEventBuilder event) {
        try {
            emitter.send(event);
        } catch (IOException | RuntimeException ex) {
            emitters.remove(emitter);
            try {
                emitter.completeWithError(ex);
            } catch (RuntimeException alreadyGone) {
                // the client is gone and the emitter with it: nothing left to complete
            }
        }
    }
}
