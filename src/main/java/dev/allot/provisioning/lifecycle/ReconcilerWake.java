package dev.allot.provisioning.lifecycle;

import dev.allot.shared.changes.PgListen;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Wakes the reconciler when holdings change, on every replica, instead of leaving it to the next timer pass:
 * PostgreSQL announces on {@value #CHANNEL}, as the change commits, each reservation whose allocations changed
 * ({@code r:<reservation>}) and each pool in which a cluster let go of nodes ({@code p:<pool>}); triggers send
 * both (migration V109), so no writer can forget. Announcements arriving close together are handled together,
 * on one thread, a moment after the first. Every replica hears every announcement; the reconciler's lease makes
 * one of them act on a cluster. An announcement missed while the connection was down is made up for by the
 * periodic pass, which looks at every serving cluster anyway.
 */
@Component
class ReconcilerWake implements SmartLifecycle {

    static final String CHANNEL = "allot_holdings";

    /** How long announcements gather before they are handled: a booking's and its follow-ups' come as one. */
    private static final long SETTLE_MILLIS = 200;

    private static final Logger log = LoggerFactory.getLogger(ReconcilerWake.class);

    private final ClusterReconciler reconciler;

    private final boolean enabled;

    private final PgListen listen;

    private final Set<UUID> reservations = ConcurrentHashMap.newKeySet();

    private final Set<UUID> pools = ConcurrentHashMap.newKeySet();

    private final AtomicBoolean due = new AtomicBoolean();

    private volatile @Nullable ScheduledExecutorService executor;

    ReconcilerWake(DataSource dataSource, ClusterReconciler reconciler, LifecycleProperties properties) {
        this.reconciler = reconciler;
        this.enabled = properties.wakeOnChanges();
        this.listen = new PgListen(dataSource, CHANNEL, this::announced);
    }

    private void announced(String payload) {
        UUID id;
        try {
            id = UUID.fromString(payload.substring(2));
        } catch (IllegalArgumentException | IndexOutOfBoundsException ex) {
            log.warn("Ignoring an announcement on {} that is not 'r:<uuid>' or 'p:<uuid>': {}", CHANNEL, payload);
            return;
        }
        (payload.startsWith("p:") ? pools : reservations).add(id);
        ScheduledExecutorService current = executor;
        if (current != null && due.compareAndSet(false, true)) {
            current.schedule(this::handle, SETTLE_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    private void handle() {
        due.set(false);
        Set<UUID> changed = take(reservations);
        Set<UUID> letGo = take(pools);
        if (changed.isEmpty() && letGo.isEmpty()) {
            return;
        }
        try {
            reconciler.woken(changed, letGo);
        } catch (RuntimeException ex) {
            // the periodic pass converges whatever this one could not
            log.warn("Could not act on changed holdings", ex);
        }
    }

    private static Set<UUID> take(Set<UUID> from) {
        Set<UUID> taken = new HashSet<>();
        for (UUID id : from) {
            if (from.remove(id)) {
                taken.add(id);
            }
        }
        return taken;
    }

    @Override
    public void start() {
        if (!enabled) {
            return;
        }
        executor = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("reconciler-wake").factory());
        listen.start("reconciler-wake-listen");
    }

    @Override
    public void stop() {
        if (!enabled) {
            return;
        }
        listen.stop();
        ScheduledExecutorService current = executor;
        executor = null;
        if (current != null) {
            current.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return enabled && listen.isRunning();
    }
}
