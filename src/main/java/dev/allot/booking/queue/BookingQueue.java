package dev.allot.booking.queue;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import dev.allot.booking.Bookings;
import dev.allot.booking.Reservation;
import dev.allot.booking.allocation.FreeCapacityRepository;
import dev.allot.booking.events.ReservationCancelled;
import dev.allot.booking.events.ReservationDecided;
import dev.allot.booking.events.ReservationFailed;
import dev.allot.inventory.Inventory;
import dev.allot.inventory.Pool;
import dev.allot.inventory.events.NodeAdded;
import dev.allot.inventory.events.NodeStateChanged;
import dev.allot.quota.Priority;
import dev.allot.shared.AllotException;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.QueuedBookings;
import dev.allot.shared.TimeWindow;
import dev.allot.shared.UtcText;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import jakarta.annotation.PreDestroy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Async;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * A queue per pool (issue 31, part 5). A booking asked with {@code whenUnavailable: QUEUE} that does not fit waits
 * as a {@code QUEUED} reservation holding nothing ({@link Bookings#book}). Each pool's queue is ordered by its
 * tenants' priority class for the pool's GPU type, then by when each was queued, with a fair share: while other
 * tenants wait, no tenant holds more than half of any head of the queue ({@link QueueOrder}).
 * <p>
 * When capacity frees (a cancel, a denied or expired approval, a failure, a node added or back in service, and every
 * {@value #DRAIN_SECONDS} seconds for windows that simply ended), the queue is drained in that order: each queued
 * reservation that now fits at the earliest start its window still allows, or at the first later start in it where
 * nodes are free, is booked through the normal booking transaction with its quota checks
 * ({@link Bookings#bookQueued}), under its row lock, so concurrent drains on any number of replicas book it once. One
 * whose latest start has passed is {@code EXPIRED}. A restart loses nothing: the queue is the rows.
 */
@Configuration(proxyBeanMethods = false)
public class BookingQueue implements QueuedBookings {

    private static final Logger log = LoggerFactory.getLogger(BookingQueue.class);

    private static final int DRAIN_SECONDS = 30;

    /** The start window a queueable booking accepts: any start from {@code earliest} to {@code latest}. */
    public record StartWindow(Instant earliest, Instant latest) {

        public StartWindow {
            if (latest.isBefore(earliest)) {
                throw InvalidInputException.of("startWindow.latest", "must not be before startWindow.earliest");
            }
        }

        public boolean holds(Instant start) {
            return !start.isBefore(earliest) && !start.isAfter(latest);
        }

        /** The asked start lies in the window, so what was asked is one of the starts the queue may give. */
        public void requireHolds(Instant start) {
            if (!holds(start)) {
                throw InvalidInputException.of(
                        "startsAt",
                        "must lie within startWindow (" + UtcText.of(earliest) + " to " + UtcText.of(latest) + ")");
            }
        }
    }

    /** One queued reservation as its pool's queue shows it to platform admins. */
    public record Entry(
            int position,
            UUID id,
            String tenant,
            String project,
            int gpus,
            Duration duration,
            Instant earliestStart,
            Instant latestStart,
            Instant queuedAt,
            Priority priority) {}

    private final Bookings bookings;

    private final Inventory inventory;

    private final Tenancy tenancy;

    private final FreeCapacityRepository freeCapacity;

    private final JdbcClient jdbc;

    private final QueueOrder order;

    private final QueueExpiry expiry;

    private final Clock clock;

    private final ExecutorService drainer = Executors.newSingleThreadExecutor(
            Thread.ofVirtual().name("booking-queue-drain").factory());

    private final AtomicBoolean wanted = new AtomicBoolean();

    BookingQueue(
            Bookings bookings,
            Inventory inventory,
            Tenancy tenancy,
            FreeCapacityRepository freeCapacity,
            JdbcClient jdbc,
            QueueOrder order,
            QueueExpiry expiry,
            Clock clock) {
        this.bookings = bookings;
        this.inventory = inventory;
        this.tenancy = tenancy;
        this.freeCapacity = freeCapacity;
        this.jdbc = jdbc;
        this.order = order;
        this.expiry = expiry;
        this.clock = clock;
    }

    /** A pool's queue, in the order it is drained (platform admins and auditors, who read everything). */
    public List<Entry> queue(Caller caller, String poolName) {
        return order.queue(caller, poolName);
    }

    /** The place in its pool's queue (1 first) of each of these reservations that is {@code QUEUED}. */
    public Map<UUID, Integer> positions(Collection<Reservation> shown) {
        return order.positions(shown);
    }

    @Override
    public List<QueuedBookings.Queued> of(String tenantSlug, String gpuTypeCode) {
        return order.of(tenantSlug, gpuTypeCode);
    }

    /** Expires every queued reservation whose latest start has passed; answers how many. */
    public int expireDue() {
        return expiry.expireDue();
    }

    /**
     * Drains every pool's queue once, in order; answers how many queued reservations were booked. A reservation
     * that fits neither at its earliest start still possible nor at a later start of its window where nodes are
     * free keeps its place.
     */
    public int drain() {
        expiry.expireDue();
        List<String> pools = jdbc.sql("""
				SELECT DISTINCT pool_name FROM reservation WHERE lifecycle_status = 'QUEUED' AND cancelled_at IS NULL""").query(String.class).list();
        int booked = 0;
        for (String poolName : pools) {
            Optional<Pool> pool = inventory.pool(poolName);
            if (pool.isEmpty()) {
                continue;
            }
            // Those that found no room in this pass hold back the ones behind them that need no less: such a one can
            // fit only if nodes were freed since, and those are for the ones ahead (the free wakes another pass).
            // Without this, frees landing during a pass booked the fifth and sixth while the third and fourth waited.
            List<QueueOrder.Queued> noRoom = new ArrayList<>();
            for (QueueOrder.Queued q : order.ordered(pool.get())) {
                Instant soonest = QueueOrder.soonest(clock);
                if (noRoom.stream().anyMatch(ahead -> needsNoLessThan(q, ahead, soonest))) {
                    continue;
                }
                Tried tried = tryToBook(pool.get(), q);
                booked += tried == Tried.BOOKED ? 1 : 0;
                if (tried == Tried.NO_ROOM) {
                    noRoom.add(q);
                }
            }
        }
        return booked;
    }

    /** What a pass's try of one queued reservation came to. */
    private enum Tried {
        BOOKED,
        NO_ROOM,
        NOT_NOW
    }

    /**
     * Whether {@code q} needs at least what {@code ahead} needs: the same team, as many GPUs or more, as long or longer,
     * only starts {@code ahead} may take too, and no reclaiming that {@code ahead} may not do (a preemptible booking
     * never reclaims). Then wherever {@code q} fits, {@code ahead} fits as well. (Another team's booking may fit where
     * this one does not, by its guarantee or what others lend it: it is never held back.)
     */
    static boolean needsNoLessThan(QueueOrder.Queued q, QueueOrder.Queued ahead, Instant soonest) {
        if (!q.tenantId().equals(ahead.tenantId()) || (ahead.preemptible() && !q.preemptible())) {
            return false;
        }
        return q.gpus() >= ahead.gpus()
                && q.duration().compareTo(ahead.duration()) >= 0
                && !q.from(soonest).isBefore(ahead.from(soonest))
                && !q.latest().isAfter(ahead.latest());
    }

    private Tried tryToBook(Pool pool, QueueOrder.Queued q) {
        Instant start = q.from(QueueOrder.soonest(clock));
        if (start.isAfter(q.latest())) {
            return Tried.NOT_NOW; // expires at the next pass
        }
        Tenant tenant = tenancy.find(q.tenant()).orElse(null);
        if (tenant == null) {
            return Tried.NOT_NOW;
        }
        try {
            Tried tried = book(tenant, q, start);
            if (tried != Tried.NO_ROOM) {
                return tried;
            }
            Iterator<Instant> later = freeCapacity.earliestStarts(
                    pool.id(),
                    q.gpus() / pool.gpusPerNode(),
                    q.duration(),
                    start,
                    q.latest().plus(Duration.ofMinutes(1)));
            Instant next = later.hasNext() ? later.next() : null;
            return next != null && next.isAfter(start) && !next.isAfter(q.latest())
                    ? book(tenant, q, next)
                    : Tried.NO_ROOM;
        } catch (AllotException refused) {
            if (refused.status() == 409) {
                return Tried.NO_ROOM;
            }
            if (refused.status() == 422 || refused.status() == 429) {
                return Tried.NOT_NOW; // over its team's quota for now: it keeps its place, others may go
            }
            // the request can no longer be booked as asked (its pool or driver gone, or dedicated away)
            expiry.expire(tenant.id(), q.tenant(), q.id(), refused.getMessage());
            return Tried.NOT_NOW;
        }
    }

    /** BOOKED; NO_ROOM when refused for capacity; NOT_NOW when it is queued no more (booked or cancelled meanwhile). */
    private Tried book(Tenant tenant, QueueOrder.Queued q, Instant start) {
        try {
            return bookings.bookQueued(tenant, q.id(), new TimeWindow(start, start.plus(q.duration())))
                            .isPresent()
                    ? Tried.BOOKED
                    : Tried.NOT_NOW;
        } catch (AllotException refused) {
            if (refused.status() == 409) {
                return Tried.NO_ROOM;
            }
            throw refused;
        }
    }

    // Capacity freed: drain soon, off the thread that freed it (after its commit, on no connection of its own: wake
    // only hands the drain to the drainer); changes arriving while a drain runs fold into one more pass.

    @Async
    @TransactionalEventListener(fallbackExecution = true)
    void on(ReservationCancelled cancelled) {
        wake();
    }

    @Async
    @TransactionalEventListener(fallbackExecution = true)
    void on(ReservationFailed failed) {
        wake();
    }

    @Async
    @TransactionalEventListener(fallbackExecution = true)
    void on(NodeAdded added) {
        wake();
    }

    @Async
    @TransactionalEventListener(fallbackExecution = true)
    void on(NodeStateChanged changed) {
        wake();
    }

    @Async
    @TransactionalEventListener(fallbackExecution = true)
    void on(ReservationDecided decided) {
        if (decided.outcome() != ReservationDecided.Outcome.APPROVED) {
            wake();
        }
    }

    /** Asks for a drain; one already asked for and not yet begun covers this one too. */
    public void wake() {
        if (wanted.compareAndSet(false, true)) {
            drainer.execute(() -> {
                wanted.set(false);
                try {
                    drain();
                } catch (RuntimeException ex) {
                    log.warn("Draining the booking queues failed; the next pass retries", ex);
                }
            });
        }
    }

    @PreDestroy
    void stop() {
        drainer.shutdownNow();
    }

    @Bean
    RecurringTask<Void> drainBookingQueues() {
        return Tasks.recurring("booking-drain-queues", FixedDelay.of(Duration.ofSeconds(DRAIN_SECONDS)))
                .execute((instance, context) -> drain());
    }
}
