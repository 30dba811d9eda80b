package dev.allot.booking.sharing;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationStatus;
import dev.allot.booking.allocation.AllocationRepository;
import dev.allot.booking.allocation.FreeCapacityRepository;
import dev.allot.booking.calendar.CapacityCalendarRepository;
import dev.allot.booking.events.ReservationPreempted;
import dev.allot.booking.store.ReservationRepository;
import dev.allot.inventory.Pool;
import dev.allot.quota.Priority;
import dev.allot.quota.Quotas;
import dev.allot.shared.TimeWindow;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/** Makes room for a guaranteed booking by preempting preemptible reservations, inside the booking's transaction. */
@Component
public class Reclaiming {

    private final ReservationRepository reservations;

    private final AllocationRepository allocations;

    private final FreeCapacityRepository freeCapacity;

    private final CapacityCalendarRepository calendar;

    private final Quotas quotas;

    private final AuditLog audit;

    private final ApplicationEventPublisher events;

    private final Clock clock;

    private final Duration preemptionNotice;

    Reclaiming(
            ReservationRepository reservations,
            AllocationRepository allocations,
            FreeCapacityRepository freeCapacity,
            CapacityCalendarRepository calendar,
            Quotas quotas,
            AuditLog audit,
            ApplicationEventPublisher events,
            Clock clock,
            SharingProperties sharing) {
        this.reservations = reservations;
        this.allocations = allocations;
        this.freeCapacity = freeCapacity;
        this.calendar = calendar;
        this.quotas = quotas;
        this.audit = audit;
        this.events = events;
        this.clock = clock;
        this.preemptionNotice = sharing.preemptionNotice();
    }

    /**
     * What reclaiming did: the nodes it freed for the booking (to lock first), and whether the booking may find room
     * when tried again (it preempted by a plan, whose victims or nodes another transaction may have held or taken,
     * or enough nodes looked free without preempting anything). When no set of nodes held only by preemptible reservations covered the booking,
     * it preempted nothing: {@code reclaimable} then lists the reservations repacking may reclaim together with its
     * moves ({@link Repacking#makeRoom(Pool, int, TimeWindow, String, List, boolean, Map, java.util.function.Predicate)}),
     * and {@code sweepOrder} the order of a last-resort sweep.
     */
    public record Reclaimed(
            boolean mayFindRoomAgain,
            List<Long> nodes,
            Map<UUID, Repacking.Reclaimable> reclaimable,
            List<ReservationRepository.Preemptible> sweepOrder) {

        static final Reclaimed NOTHING = new Reclaimed(false, List.of(), Map.of(), List.of());
    }

    /**
     * Reclaiming: a booking wholly within its tenant's guarantee that finds too few nodes free preempts other
     * tenants' preemptible reservations overlapping its window, in the booking's transaction: if the booking still
     * fails, the preemptions roll back with it. Victims are minimal: it chooses nodes that nothing but such
     * reservations hold in the window, one at a time, each the node whose holders not yet chosen lose the fewest
     * GPU-hours (then the least important priority class, then the most recently created), and preempts only
     * their holders, so every victim holds a node the booking takes. When no such choice covers the booking (a
     * node is also held by reservations that may only move), it preempts nothing and leaves the choice to repacking,
     * which plans the moves and the victims together ({@link Reclaimed#reclaimable}); {@link #sweep} is the last
     * resort. A victim whose notice would keep its nodes past the window's start is left alone. {@code patient}: wait
     * for a victim (its row and nodes) another transaction holds rather than pass it by (the booking then has the pool
     * to itself: {@link AllocationRepository#turnInPool}); a deadlock this may close is broken by PostgreSQL, and the booking
     * runs again.
     */
    public Reclaimed reclaim(
            Pool pool, UUID tenantId, int nodes, TimeWindow window, @Nullable String driver, boolean patient) {
        // the candidates first: a partial index finds them at once, and without any the pool's free nodes (a count
        // over the whole pool) need not be counted
        List<ReservationRepository.Preemptible> candidates =
                reservations.preemptibleOverlapping(pool.id(), tenantId, window);
        if (candidates.isEmpty()) {
            return Reclaimed.NOTHING;
        }
        int free = freeCapacity.countFree(pool.id(), window, driver);
        if (free >= nodes) {
            return new Reclaimed(true, List.of(), Map.of(), List.of());
        }
        Instant now = clock.instant();
        Planned planned = plan(pool, candidates, nodes - free, window, driver, now);
        List<ReservationRepository.Preemptible> sweepOrder = planned.sweepOrder();
        Map<UUID, Long> lost = planned.lost();
        Optional<VictimPlan> plan = planned.plan();
        if (plan.isEmpty()) {
            Map<UUID, Repacking.Reclaimable> reclaimable = new HashMap<>();
            for (ReservationRepository.Preemptible c : candidates) {
                if (lost.containsKey(c.id())) {
                    reclaimable.put(
                            c.id(),
                            new Repacking.Reclaimable(
                                    freedFrom(c.startsAt(), window, now).orElseThrow(), lost.get(c.id())));
                }
            }
            return new Reclaimed(false, List.of(), reclaimable, sweepOrder);
        }
        for (ReservationRepository.Preemptible victim : plan.get().victims()) {
            preempt(victim, pool, window, now, patient);
        }
        // the plan was made on what was read without locks: a victim another transaction held was passed by, or
        // another booking took a planned node since. Preempting others instead would preempt reservations holding no
        // node of this booking: the booking is tried again (a lost race), and plans anew
        return new Reclaimed(true, plan.get().nodes(), Map.of(), List.of());
    }

    /** The candidates in the order a sweep takes them, what each would lose, and the plan (empty: none covers it). */
    private record Planned(
            List<ReservationRepository.Preemptible> sweepOrder, Map<UUID, Long> lost, Optional<VictimPlan> plan) {}

    /** Plans the victims that free {@code need} more nodes of the pool for the window, preempting nothing. */
    private Planned plan(
            Pool pool,
            List<ReservationRepository.Preemptible> candidates,
            int need,
            TimeWindow window,
            @Nullable String driver,
            Instant now) {
        Map<UUID, Priority> priorities = quotas.priorities(
                candidates.stream()
                        .map(ReservationRepository.Preemptible::tenantId)
                        .toList(),
                pool.gpuType());
        Comparator<ReservationRepository.Preemptible> victimOrder = Comparator.comparing(
                        (ReservationRepository.Preemptible c) -> Objects.requireNonNull(
                                        priorities.get(c.tenantId()), "a priority per tenant")
                                .ordinal())
                .reversed()
                .thenComparing(ReservationRepository.Preemptible::createdAt, Comparator.reverseOrder())
                .thenComparing(ReservationRepository.Preemptible::id);
        Map<UUID, Long> lost = lostIfPreempted(candidates, window, now);
        return new Planned(
                candidates.stream().sorted(victimOrder).toList(),
                lost,
                VictimPlan.of(
                        freeCapacity.holdersIn(pool.id(), window, driver),
                        candidates,
                        lost,
                        priorities,
                        need,
                        victimOrder));
    }

    /**
     * For a quote, which changes nothing: how many reservations of other tenants a guaranteed booking of this window
     * would preempt (its plan's victims; without a plan, repacking decides, and every candidate that would let go in
     * time is counted), or empty when reclaiming would not make room. Zero when enough nodes are free.
     */
    public OptionalInt victimsFor(Pool pool, UUID tenantId, int nodes, TimeWindow window, @Nullable String driver) {
        if (!wouldMakeRoom(pool, tenantId, nodes, window, driver)) {
            return OptionalInt.empty();
        }
        int free = freeCapacity.countFree(pool.id(), window, driver);
        List<ReservationRepository.Preemptible> candidates =
                reservations.preemptibleOverlapping(pool.id(), tenantId, window);
        if (free >= nodes || candidates.isEmpty()) {
            return OptionalInt.of(0);
        }
        Planned planned = plan(pool, candidates, nodes - free, window, driver, clock.instant());
        return OptionalInt.of(planned.plan()
                .map(p -> p.victims().size())
                .orElse(planned.lost().size()));
    }

    /** How long a preempted reservation that runs, or starts within it, keeps its nodes. */
    public Duration notice() {
        return preemptionNotice;
    }

    /** What a sweep found: enough nodes free, and whether it passed a victim another transaction held. */
    public record SweepResult(boolean enough, boolean contended) {}

    /**
     * The last resort: preempts in priority and age order until enough nodes are free for the whole window (a victim
     * may then hold no node the booking takes: its nodes make room for repacking to move others).
     */
    public SweepResult sweep(
            Pool pool,
            int nodes,
            TimeWindow window,
            @Nullable String driver,
            boolean patient,
            List<ReservationRepository.Preemptible> order) {
        Instant now = clock.instant();
        int free = freeCapacity.countFree(pool.id(), window, driver);
        boolean contended = false;
        for (ReservationRepository.Preemptible victim : order) {
            if (free >= nodes) {
                return new SweepResult(true, contended);
            }
            Preempted preempted = preempt(victim, pool, window, now, patient);
            if (preempted == Preempted.YES) {
                free = freeCapacity.countFree(pool.id(), window, driver);
            }
            contended |= preempted == Preempted.HELD_ELSEWHERE;
        }
        return new SweepResult(free >= nodes, contended);
    }

    /** Preempts the reservations repacking chose (each among {@code candidates}); false when one could not be. */
    public boolean preemptAll(
            Set<UUID> victims,
            List<ReservationRepository.Preemptible> candidates,
            Pool pool,
            TimeWindow window,
            boolean patient) {
        Instant now = clock.instant();
        for (ReservationRepository.Preemptible victim : candidates) {
            if (victims.contains(victim.id()) && preempt(victim, pool, window, now, patient) != Preempted.YES) {
                return false;
            }
        }
        return true;
    }

    /**
     * The GPU-seconds each candidate would lose, for those that would let go of their nodes by the window's start:
     * those starting after the notice let go of everything at once, those keeping their nodes for the notice only
     * when it ends by then (the others are left out: preempting them would not help this booking).
     */
    private Map<UUID, Long> lostIfPreempted(
            List<ReservationRepository.Preemptible> candidates, TimeWindow window, Instant now) {
        Map<UUID, Long> lost = new HashMap<>();
        for (ReservationRepository.Preemptible candidate : candidates) {
            freedFrom(candidate.startsAt(), window, now)
                    .ifPresent(freedFrom -> lost.put(
                            candidate.id(),
                            candidate.gpus()
                                    * Math.max(
                                            0,
                                            Duration.between(freedFrom, candidate.endsAt())
                                                    .toSeconds())));
        }
        return lost;
    }

    /**
     * When a reservation starting at {@code startsAt}, preempted {@code now}, lets go of its nodes: one that runs or
     * starts within the notice keeps them until the notice's end, one further ahead lets go at once (from its
     * start). Empty when that is after {@code needed} starts: preempting it would not help that booking.
     */
    private Optional<Instant> freedFrom(Instant startsAt, TimeWindow needed, Instant now) {
        Instant noticeEnd = nextMinute(now.plus(preemptionNotice));
        boolean keepsNodesForTheNotice = startsAt.isBefore(noticeEnd);
        if (keepsNodesForTheNotice && noticeEnd.isAfter(needed.start())) {
            return Optional.empty();
        }
        return Optional.of(keepsNodesForTheNotice ? noticeEnd : startsAt);
    }

    private enum Preempted {
        YES,
        NO,
        HELD_ELSEWHERE
    }

    /**
     * Whether a guaranteed booking of this window would get its nodes by reclaiming (for a quote, which changes
     * nothing): it starts after the notice, and enough nodes hold nothing but other tenants' live preemptible
     * reservations. Moving reservations that have not started ({@link Repacking}) is not counted.
     */
    boolean wouldMakeRoom(Pool pool, UUID tenantId, int nodes, TimeWindow window, @Nullable String driver) {
        return !window.start().isBefore(clock.instant().plus(preemptionNotice))
                && freeCapacity.countReclaimable(pool.id(), tenantId, window, driver) >= nodes;
    }

    /**
     * For a guaranteed booking that reclaiming could not make room for because it asked to start before the notice
     * of the reservations in its way runs out: the same length from the end of that notice, when reclaiming would
     * make room then (enough nodes hold nothing but other tenants' live preemptible reservations). The start is a
     * minute past the end of the notice, rounded up to five minutes, so that a client booking it at once still finds
     * the notice run out by then.
     */
    public Optional<TimeWindow> afterNotice(
            Pool pool, UUID tenantId, int nodes, TimeWindow window, @Nullable String driver) {
        Instant noticeEnd = nextMinute(clock.instant().plus(preemptionNotice)).plus(Duration.ofMinutes(1));
        long fiveMinutes = Duration.ofMinutes(5).toSeconds();
        noticeEnd = Instant.ofEpochSecond(Math.ceilDiv(noticeEnd.getEpochSecond(), fiveMinutes) * fiveMinutes);
        if (!noticeEnd.isAfter(window.start())) {
            return Optional.empty();
        }
        TimeWindow later = new TimeWindow(noticeEnd, noticeEnd.plus(window.duration()));
        return freeCapacity.countReclaimable(pool.id(), tenantId, later, driver) >= nodes
                ? Optional.of(later)
                : Optional.empty();
    }

    /**
     * Preempts one reservation, unless its notice keeps its nodes past {@code needed}'s start. Unless
     * {@code patient}, never waits: a victim whose row or nodes another transaction holds (its owner changing it,
     * another booking reclaiming it) is passed by, so two reclaiming bookings cannot deadlock on each other's victims.
     */
    private Preempted preempt(
            ReservationRepository.Preemptible victim, Pool pool, TimeWindow needed, Instant now, boolean patient) {
        Optional<ReservationRepository.Stored> held = patient
                ? reservations.findForUpdate(victim.tenantId(), victim.id())
                : reservations.findForUpdateSkipLocked(victim.tenantId(), victim.id());
        if (held.isEmpty()) {
            return Preempted.HELD_ELSEWHERE;
        }
        ReservationRepository.Stored stored = held.get();
        Reservation before = stored.reservation();
        ReservationStatus status = before.status(now);
        if (!before.preemptible()
                || !(status == ReservationStatus.CONFIRMED
                        || status == ReservationStatus.PROVISIONING
                        || status == ReservationStatus.ACTIVE)) {
            return Preempted.NO; // changed since it was listed
        }
        Instant at = nextMinute(now);
        Optional<Instant> letsGo = freedFrom(before.startsAt(), needed, now);
        if (letsGo.isEmpty()) {
            return Preempted.NO;
        }
        Instant freedFrom = letsGo.get();
        String reason =
                "Reclaimed for a guaranteed booking of " + pool.gpuType().code()
                        + " capacity: this reservation was preemptible"
                        + (before.quote().preemptible() ? " (part of it was borrowed above the guarantee)" : "");
        List<Long> nodeIds = allocations.nodesOf(before.id());
        if (patient) {
            allocations.lockNodes(nodeIds);
        } else if (allocations.lockNodesSkipLocked(nodeIds).size() < nodeIds.size()) {
            return Preempted.HELD_ELSEWHERE;
        }
        if (freedFrom.isBefore(before.endsAt())) {
            allocations
                    .endAt(before.id(), stored.poolId(), freedFrom)
                    .forEach((freed, gaps) -> calendar.returned(stored.poolId(), gaps, freed));
        }
        quotas.releasePreempted(before.id(), at.isAfter(before.startsAt()) ? at : before.startsAt());
        Reservation after = before.markPreempted(reason, at);
        reservations.updateProgress(after);
        audit.record(new AuditRecord(
                before.tenant(),
                "reservation.preempted",
                "reservation",
                before.id().toString(),
                before,
                after));
        events.publishEvent(new ReservationPreempted(before.id(), before.tenant(), pool.name(), at, freedFrom, reason));
        return Preempted.YES;
    }

    private static Instant nextMinute(Instant instant) {
        Instant truncated = instant.truncatedTo(ChronoUnit.MINUTES);
        return truncated.equals(instant) ? instant : truncated.plus(Duration.ofMinutes(1));
    }
}
