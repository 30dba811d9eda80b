package dev.allot.booking.queue;

import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationStatus;
import dev.allot.booking.queue.BookingQueue.Entry;
import dev.allot.inventory.Inventory;
import dev.allot.inventory.Pool;
import dev.allot.quota.Priority;
import dev.allot.quota.Quotas;
import dev.allot.shared.QueuedBookings;
import dev.allot.shared.security.Caller;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The order of each pool's queue, read from the rows: by its tenants' priority class for the pool's GPU type, then by
 * when each was queued, with a fair share ({@link #fairOrder}); and the places in it that admins and tenants see.
 */
@Component
class QueueOrder {

    private final JdbcClient jdbc;

    private final Quotas quotas;

    private final Inventory inventory;

    QueueOrder(JdbcClient jdbc, Quotas quotas, Inventory inventory) {
        this.jdbc = jdbc;
        this.quotas = quotas;
        this.inventory = inventory;
    }

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
    static Instant soonest(Clock clock) {
        return clock.instant().truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1));
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
    List<Entry> queue(Caller caller, String poolName) {
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
    Map<UUID, Integer> positions(Collection<Reservation> shown) {
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

    /** The tenant's queued reservations of the GPU type, with their places in their pools' queues. */
    List<QueuedBookings.Queued> of(String tenantSlug, String gpuTypeCode) {
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

    List<Queued> ordered(Pool pool) {
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
}
