package dev.allot.booking.queue;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.booking.Bookings;
import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationStatus;
import dev.allot.booking.allocation.AllocationRepository;
import dev.allot.booking.events.ReservationCancelled;
import dev.allot.booking.events.ReservationDecided;
import dev.allot.booking.events.ReservationDequeued;
import dev.allot.booking.events.ReservationFailed;
import dev.allot.booking.store.ReservationRepository;
import dev.allot.inventory.Inventory;
import dev.allot.inventory.Pool;
import dev.allot.inventory.events.NodeAdded;
import dev.allot.inventory.events.NodeStateChanged;
import dev.allot.quota.Priority;
import dev.allot.quota.Quotas;
import dev.allot.shared.AllotException;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.QueuedBookings;
import dev.allot.shared.TimeWindow;
import dev.allot.shared.UtcText;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import jakarta.annotation.PreDestroy;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Async;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A queue per pool (issue 31, part 5). A booking asked with {@code whenUnavailable: QUEUE} that does not fit waits
 * as a {@code QUEUED} reservation holding nothing ({@link Bookings#book}). Each pool's queue is ordered by its
 * tenants' priority class for the pool's GPU type, then by when each was queued, with a fair share: while other
 * tenants wait, no tenant holds more than half of any head of the queue ({@link #fairOrder}).
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

    record Queued(
            UUID id,
            UUID tenantId,
            String tenant,
            String project,
            int gpus,
            Duration duration,
            Instant earliest,
            Instant latest,
            Instant queuedAt,
            boolean preemptible) {

        /** The first start it may take, none sooner than {@code soonest}. */
        Instant from(Instant soonest) {
            return earliest.isAfter(soonest) ? earliest : soonest;
        }
    }

    /** The soonest start a queued reservation may be booked at: the next whole minute. */
    private Instant soonest() {
        return clock.instant().truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1));
    }

    private final Bookings bookings;

    private final ReservationRepository reservations;

    private final Inventory inventory;

    private final Quotas quotas;

    private final Tenancy tenancy;

    private final AllocationRepository allocations;

    private final AuditLog audit;

    private final ApplicationEventPublisher events;

    private final JdbcClient jdbc;

    private final TransactionTemplate transactions;

    private final Clock clock;

    private final ExecutorService drainer = Executors.newSingleThreadExecutor(
            Thread.ofVirtual().name("booking-queue-drain").factory());

    private final AtomicBoolean wanted = new AtomicBoolean();

    BookingQueue(
            Bookings bookings,
            ReservationRepository reservations,
            Inventory inventory,
            Quotas quotas,
            Tenancy tenancy,
            AllocationRepository allocations,
            AuditLog audit,
            ApplicationEventPublisher events,
            JdbcClient jdbc,
            TransactionTemplate transactions,
            Clock clock) {
        this.bookings = bookings;
        this.reservations = reservations;
        this.inventory = inventory;
        this.quotas = quotas;
        this.tenancy = tenancy;
        this.allocations = allocations;
        this.audit = audit;
        this.events = events;
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.clock = clock;
    }

    /**
     * Orders a queue given in priority-then-time order so that, while other tenants wait, no tenant holds more than
     * half of any head of it: each next place goes to the first entry whose tenant would still hold at most half of
     * the head so far (rounded up); when only one tenant's entries are left they follow in their order.
     */
    static <E> List<E> fairOrder(List<E> byPriorityThenTime, Function<E, ?> tenantOf) {
        List<E> left = new ArrayList<>(byPriorityThenTime);
        List<E> ordered = new ArrayList<>(left.size());
        Map<Object, Integer> held = new HashMap<>();
        while (!left.isEmpty()) {
            int head = ordered.size() + 1;
            E next = left.stream()
                    .filter(e -> 2 * (held.getOrDefault(tenantOf.apply(e), 0) + 1) <= head + 1)
                    .findFirst()
                    .orElse(left.getFirst());
            left.remove(next);
            ordered.add(next);
            held.merge(tenantOf.apply(next), 1, Integer::sum);
        }
        return ordered;
    }

    /** A pool's queue, in the order it is drained (platform admins and auditors, who read everything). */
    public List<Entry> queue(Caller caller, String poolName) {
        caller.requireReadsEverything();
        Pool pool = inventory.existingPool(poolName);
        List<Queued> ordered = ordered(pool);
        Map<UUID, Priority> priorities =
                quotas.priorities(ordered.stream().map(Queued::tenantId).toList(), pool.gpuType());
        List<Entry> entries = new ArrayList<>();
        for (Queued q : ordered) {
            entries.add(new Entry(
                    entries.size() + 1,
                    q.id(),
                    q.tenant(),
                    q.project(),
                    q.gpus(),
                    q.duration(),
                    q.earliest(),
                    q.latest(),
                    q.queuedAt(),
                    Objects.requireNonNull(priorities.get(q.tenantId()), "a priority per tenant")));
        }
        return entries;
    }

    /** The place in its pool's queue (1 first) of each of these reservations that is {@code QUEUED}. */
    public Map<UUID, Integer> positions(Collection<Reservation> shown) {
        Map<UUID, Integer> positions = new HashMap<>();
        shown.stream()
                .filter(r -> r.stage() == ReservationStatus.QUEUED && r.cancelledAt() == null)
                .map(Reservation::pool)
                .distinct()
                .forEach(poolName -> inventory.pool(poolName).ifPresent(pool -> {
                    List<Queued> ordered = ordered(pool);
                    for (int i = 0; i < ordered.size(); i++) {
                        positions.put(ordered.get(i).id(), i + 1);
                    }
                }));
        positions.keySet().retainAll(shown.stream().map(Reservation::id).toList());
        return positions;
    }

    @Override
    public List<QueuedBookings.Queued> of(String tenantSlug, String gpuTypeCode) {
        List<String> pools = jdbc.sql("""
				SELECT DISTINCT pool_name FROM reservation
				WHERE tenant_slug = ? AND gpu_type = ? AND lifecycle_status = 'QUEUED' AND cancelled_at IS NULL
				ORDER BY pool_name""")
                .params(tenantSlug, gpuTypeCode)
                .query(String.class)
                .list();
        List<QueuedBookings.Queued> mine = new ArrayList<>();
        for (String poolName : pools) {
            inventory.pool(poolName).ifPresent(pool -> {
                List<Queued> ordered = ordered(pool);
                for (int i = 0; i < ordered.size(); i++) {
                    Queued q = ordered.get(i);
                    if (q.tenant().equals(tenantSlug)) {
                        mine.add(new QueuedBookings.Queued(q.id(), poolName, q.project(), q.gpus(), i + 1));
                    }
                }
            });
        }
        return mine;
    }

    private List<Queued> ordered(Pool pool) {
        List<Queued> queued = jdbc.sql("""
				SELECT id, tenant_id, tenant_slug, project_slug, gpus, starts_at, ends_at, queue_earliest, queue_latest,
				    created_at, preemptible
				FROM reservation WHERE pool_id = ? AND lifecycle_status = 'QUEUED' AND cancelled_at IS NULL
				ORDER BY created_at, id""")
                .param(pool.id())
                .query((rs, n) -> new Queued(
                        rs.getObject(1, UUID.class),
                        rs.getObject(2, UUID.class),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getInt(5),
                        Duration.between(
                                rs.getTimestamp(6).toInstant(),
                                rs.getTimestamp(7).toInstant()),
                        rs.getTimestamp(8).toInstant(),
                        rs.getTimestamp(9).toInstant(),
                        rs.getTimestamp(10).toInstant(),
                        rs.getBoolean(11)))
                .list();
        if (queued.isEmpty()) {
            return queued;
        }
        Map<UUID, Priority> priorities =
                quotas.priorities(queued.stream().map(Queued::tenantId).toList(), pool.gpuType());
        List<Queued> byPriority = queued.stream()
                .sorted(Comparator.comparing((Queued q) -> priorities.get(q.tenantId()))
                        .thenComparing(Queued::queuedAt))
                .toList();
        return fairOrder(byPriority, Queued::tenantId);
    }

    /**
     * Drains every pool's queue once, in order; answers how many queued reservations were booked. A reservation
     * that fits neither at its earliest start still possible nor at a later start of its window where nodes are
     * free keeps its place.
     */
    public int drain() {
        expireDue();
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
            List<Queued> noRoom = new ArrayList<>();
            for (Queued q : ordered(pool.get())) {
                Instant soonest = soonest();
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
    static boolean needsNoLessThan(Queued q, Queued ahead, Instant soonest) {
        if (!q.tenantId().equals(ahead.tenantId()) || (ahead.preemptible() && !q.preemptible())) {
            return false;
        }
        return q.gpus() >= ahead.gpus()
                && q.duration().compareTo(ahead.duration()) >= 0
                && !q.from(soonest).isBefore(ahead.from(soonest))
                && !q.latest().isAfter(ahead.latest());
    }

    private Tried tryToBook(Pool pool, Queued q) {
        Instant start = q.from(soonest());
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
            Iterator<Instant> later = allocations.earliestStarts(
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
            expire(tenant.id(), q.tenant(), q.id(), refused.getMessage());
            return Tried.NOT_NOW;
        }
    }

    /** BOOKED; NO_ROOM when refused for capacity; NOT_NOW when it is queued no more (booked or cancelled meanwhile). */
    private Tried book(Tenant tenant, Queued q, Instant start) {
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

    /** Expires every queued reservation whose latest start has passed; answers how many. */
    public int expireDue() {
        List<Due> due = jdbc.sql("""
				SELECT id, tenant_id, tenant_slug FROM reservation
				WHERE lifecycle_status = 'QUEUED' AND cancelled_at IS NULL AND queue_latest < ?
				ORDER BY queue_latest LIMIT 500""")
                .param(Timestamp.from(soonest()))
                .query((rs, n) -> new Due(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getString(3)))
                .list();
        int expired = 0;
        for (Due q : due) {
            expired += expire(q.tenantId(), q.tenant(), q.id(), "No capacity freed before its latest start") ? 1 : 0;
        }
        return expired;
    }

    private record Due(UUID id, UUID tenantId, String tenant) {}

    private boolean expire(UUID tenantId, String tenant, UUID id, String reason) {
        return Boolean.TRUE.equals(transactions.execute(status -> {
            quotas.lock(tenantId);
            ReservationRepository.Stored stored =
                    reservations.findForUpdate(tenantId, id).orElse(null);
            if (stored == null
                    || stored.reservation().stage() != ReservationStatus.QUEUED
                    || stored.reservation().cancelledAt() != null) {
                return false; // booked or cancelled meanwhile
            }
            Instant now = clock.instant();
            Reservation after = stored.reservation().expiredInQueue(reason, now);
            reservations.updateProgress(after);
            audit.record(new AuditRecord(
                    tenant, "reservation.expired", "reservation", id.toString(), stored.reservation(), after));
            events.publishEvent(new ReservationDequeued(id, tenant, ReservationDequeued.Outcome.EXPIRED, reason, now));
            return true;
        }));
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
