package dev.allot.booking.sharing;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.booking.Reservation;
import dev.allot.booking.allocation.AllocationRepository;
import dev.allot.booking.calendar.CapacityCalendarRepository;
import dev.allot.booking.sharing.Packing.Movable;
import dev.allot.booking.sharing.Packing.Plan;
import dev.allot.booking.sharing.Packing.Room;
import dev.allot.booking.store.ReservationRepository;
import dev.allot.inventory.Pool;
import dev.allot.shared.TimeWindow;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Repacking: a guaranteed booking that still finds too few nodes free for its whole window after reclaiming moves
 * reservations that have not started to other nodes of the pool, so that enough nodes are free for the window.
 * <p>
 * Guarantees are counted hour by hour, but a booking needs the same nodes for its whole window: other tenants'
 * reservations, each within its own guarantee, may leave a free node in every hour and no node free in all of
 * them. Repacking assigns nodes anew to the reservations overlapping the window that may move (they start more than
 * {@code allot.sharing.repack-beyond} ahead and their cluster is not being built), together with the booking, in
 * order of their start, each keeping its own nodes when they are still free, else taking others with its CUDA
 * driver (its block first). Every reservation that may not move (it started, or is about to) starts before any that
 * may, so whatever is in the way of a reservation being placed holds the moment it starts: this finds nodes for all
 * of them whenever, at every start, the nodes needed there are no more than the nodes there are. A guaranteed
 * booking within the healthy capacity is then refused only for reservations that may no longer move.
 * <p>
 * In the booking's transaction: it plans on what it reads without locking (a pool too full for any packing is found
 * so, holding nothing), then locks the nodes its plan changes (without waiting, unless the booking's last attempt)
 * and checks that they still hold what it read, and locks the reservations it moves without waiting; anything
 * another transaction holds or changed makes it answer {@code contended}, and the booking is tried again. If the
 * booking still fails, the moves roll back with it. A moved reservation keeps its window and size; its nodes change, which it shows, and each move
 * is audited ({@code reservation.repacked}).
 */
@Component
public class Repacking {

    private final PackingRepository rows;

    private final ReservationRepository reservations;

    private final AllocationRepository allocations;

    private final CapacityCalendarRepository calendar;

    private final AuditLog audit;

    private final Clock clock;

    private final Duration repackBeyond;

    Repacking(
            PackingRepository rows,
            ReservationRepository reservations,
            AllocationRepository allocations,
            CapacityCalendarRepository calendar,
            AuditLog audit,
            Clock clock,
            SharingProperties sharing) {
        this.rows = rows;
        this.reservations = reservations;
        this.allocations = allocations;
        this.calendar = calendar;
        this.audit = audit;
        this.clock = clock;
        this.repackBeyond = sharing.repackBeyond();
    }

    /**
     * The nodes repacking freed for the booking, locked (none when it found no packing, and then nothing moved);
     * {@code contended} when it was short of what other transactions held (nodes or reservations passed by), so that
     * the booking may be tried again.
     */
    public record Made(List<AllocationRepository.Locked> nodes, boolean contended) {

        static final Made NOTHING = new Made(List.of(), false);
    }

    /**
     * Frees {@code count} more nodes for the whole window by moving reservations that have not started, and locks
     * them; the nodes already {@code chosen} for the booking stay its own. Plans on what it reads without locking
     * (a pool too full for any packing is found so, holding nothing), then locks only the nodes the plan changes and
     * checks that they still hold what it read.
     */
    public Made makeRoom(
            Pool pool, int count, TimeWindow window, @Nullable String cudaDriver, List<Long> chosen, boolean patient) {
        return makeRoom(pool, count, window, cudaDriver, chosen, patient, Map.of(), victims -> true);
    }

    /**
     * A preemptible reservation the booking may reclaim: it lets go of its nodes from {@code freedFrom}, losing
     * {@code lost} GPU-seconds.
     */
    record Reclaimable(Instant freedFrom, long lost) {}

    /**
     * As {@link #makeRoom(Pool, int, TimeWindow, String, List, boolean)}, planning the moves and the reclaiming
     * together: the booking may also take nodes that {@code reclaimable} reservations hold (the cheapest first), which
     * no moved reservation may take, so that every reservation preempted holds a node the booking takes. Once the
     * nodes are locked and found unchanged, {@code preempt} preempts the plan's victims (false: one could not be, and
     * nothing is moved).
     */
    public Made makeRoom(
            Pool pool,
            int count,
            TimeWindow window,
            @Nullable String cudaDriver,
            List<Long> chosen,
            boolean patient,
            Map<UUID, Reclaimable> reclaimable,
            Predicate<Set<UUID>> preempt) {
        Instant settled = clock.instant().plus(repackBeyond);
        List<Movable> first = rows.movable(pool.id(), window, settled);
        if (first == null || (first.isEmpty() && reclaimable.isEmpty())) {
            return Made.NOTHING;
        }
        Reach reach = widened(pool.id(), window, settled, first);
        TimeWindow horizon = Packing.span(reach.window(), reach.inTheWay());
        Set<Long> nodes = new HashSet<>(rows.nodesTouching(pool.id(), horizon, chosen));
        List<Movable> moving = moving(reach.inTheWay(), nodes, reclaimable);
        Map<Long, Room> rooms = rows.rooms(pool.id(), nodes, horizon, moving);
        rows.claims(rooms, horizon, reclaimable);
        Map<Long, String> read = Packing.held(rooms.keySet(), rooms, moving);
        Optional<Plan> plan = Packing.plan(rooms, moving, window, count, cudaDriver);
        if (plan.isEmpty()) {
            return Made.NOTHING;
        }
        List<Long> involved = plan.get().involved();
        if (!locked(involved, patient)) {
            return new Made(List.of(), true);
        }
        if (!unchanged(pool.id(), involved, nodes, reclaimable, reach.window(), horizon, settled, read)
                || !preempt.test(plan.get().victims())
                || !apply(pool, plan.get(), rooms)) {
            return new Made(List.of(), true);
        }
        return new Made(
                plan.get().booking().stream()
                        .map(id -> new AllocationRepository.Locked(
                                id, Packing.room(rooms, id).hostname()))
                        .toList(),
                false);
    }

    /** How far the reservations in the way reach ({@code window}), and those reservations. */
    private record Reach(TimeWindow window, List<Movable> inTheWay) {}

    /**
     * The reservations in the way of the window, and what is in the way of those, and so on, until none reaches
     * further (a reservation left in place, starting later than one moved, may keep it from its nodes), as long as
     * they stay few enough: {@code inTheWay} holds what overlaps the reach.
     */
    private Reach widened(UUID poolId, TimeWindow window, Instant settled, List<Movable> inTheWay) {
        TimeWindow reach = window;
        List<Movable> overlapping = inTheWay;
        for (int round = 0; round < 8; round++) {
            TimeWindow wider = Packing.span(reach, overlapping);
            List<Movable> more = wider.equals(reach) ? null : rows.movable(poolId, wider, settled);
            if (more == null) {
                break;
            }
            reach = wider;
            overlapping = more;
        }
        return new Reach(reach, overlapping);
    }

    /**
     * Those of the reservations that may move: on the nodes considered, and not reclaimable (where a reservation the
     * booking may reclaim is in the way of the booking it is preempted, so that no move needs room only a preemption
     * elsewhere, of a reservation holding no node of the booking, makes).
     */
    private static List<Movable> moving(List<Movable> inTheWay, Set<Long> nodes, Map<UUID, Reclaimable> reclaimable) {
        return inTheWay.stream()
                .filter(m -> nodes.containsAll(m.nodes()) && !reclaimable.containsKey(m.id()))
                .toList();
    }

    /** Locks the nodes the plan changes: waiting for them when {@code patient}, else false when one is held. */
    private boolean locked(List<Long> involved, boolean patient) {
        if (patient) {
            allocations.lockNodes(involved);
            return true;
        }
        return allocations.lockNodesSkipLocked(involved).size() >= involved.size();
    }

    /** Under the locks: whether the nodes the plan changes still hold what it {@code read}. */
    private boolean unchanged(
            UUID poolId,
            List<Long> involved,
            Set<Long> nodes,
            Map<UUID, Reclaimable> reclaimable,
            TimeWindow reach,
            TimeWindow horizon,
            Instant settled,
            Map<Long, String> read) {
        List<Movable> again = rows.movable(poolId, reach, settled);
        List<Movable> now = again == null ? List.of() : moving(again, nodes, reclaimable);
        Map<Long, String> heldNow = Packing.held(involved, rows.rooms(poolId, Set.copyOf(involved), horizon, now), now);
        return again != null && involved.stream().allMatch(node -> Objects.equals(heldNow.get(node), read.get(node)));
    }

    /**
     * Moves the reservations: each is locked without waiting, even by a patient booking (one another transaction
     * holds makes the plan fail, before anything changed: its holder, changing it, would wait for the nodes this
     * transaction holds); then every node they leave gets its window back, and only then does every node they
     * take lose it, so no two live allocations overlap at any step.
     */
    private boolean apply(Pool pool, Plan plan, Map<Long, Room> rooms) {
        Instant settled = clock.instant().plus(repackBeyond);
        List<ReservationRepository.Stored> held = new ArrayList<>();
        for (Movable reservation : plan.moved().keySet()) {
            Optional<ReservationRepository.Stored> stored =
                    reservations.findForUpdateSkipLocked(reservation.tenantId(), reservation.id());
            if (stored.isEmpty()
                    || stored.get().reservation().cancelledAt() != null
                    || stored.get().reservation().progress() != null
                    || !stored.get().reservation().startsAt().isAfter(settled)) {
                return false;
            }
            held.add(stored.get());
        }
        for (Movable reservation : plan.moved().keySet()) {
            for (long left : plan.leaving(reservation)) {
                allocations.release(reservation.id(), left, reservation.window().start());
                calendar.returned(
                        pool.id(),
                        allocations.returnToGaps(List.of(left), pool.id(), reservation.window()),
                        reservation.window());
            }
        }
        int i = 0;
        for (Movable reservation : plan.moved().keySet()) {
            List<Long> leaving = plan.leaving(reservation);
            List<Long> joining = plan.moved().get(reservation).stream()
                    .filter(node -> !reservation.nodes().contains(node))
                    .toList();
            List<AllocationRepository.Gap> gaps = allocations.takeFromGaps(joining, reservation.window());
            allocations.allocate(reservation.id(), pool.id(), joining, reservation.window());
            calendar.taken(pool.id(), gaps, reservation.window());
            Reservation before = held.get(i++).reservation();
            Reservation after = before;
            for (int n = 0; n < leaving.size(); n++) {
                after = after.replacingNode(
                        Packing.room(rooms, leaving.get(n)).hostname(),
                        Packing.room(rooms, joining.get(n)).hostname());
            }
            reservations.updateNodes(after);
            audit.record(new AuditRecord(
                    before.tenant(),
                    "reservation.repacked",
                    "reservation",
                    before.id().toString(),
                    before,
                    after));
        }
        return true;
    }
}
