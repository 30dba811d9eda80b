package dev.allot.booking;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.booking.allocation.AllocationRepository;
import dev.allot.booking.allocation.HotSpares;
import dev.allot.booking.calendar.CapacityCalendarRepository;
import dev.allot.booking.events.ReservationFailed;
import dev.allot.booking.store.ReservationRepository;
import dev.allot.quota.Quotas;
import dev.allot.shared.AllotException;
import dev.allot.shared.TimeWindow;
import dev.allot.tenancy.Tenancy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The lifecycle transitions provisioning makes, by reservation id (provisioning acts for no caller). Each joins the
 * caller's transaction when there is one, so that a cluster's state and its reservation's stage commit together;
 * takes locks in booking's order (quota row, reservation row, node rows); is audited; and is idempotent: asking for
 * the stage a reservation is already in changes nothing. A transition the lifecycle does not allow (activating a
 * cancelled reservation, failing an active one) is refused with {@code 409 reservation_transition_refused}.
 */
@Service
public class ReservationLifecycle {

    private final ReservationRepository reservations;

    private final AllocationRepository allocations;

    private final CapacityCalendarRepository calendar;

    private final Quotas quotas;

    private final Tenancy tenancy;

    private final AuditLog audit;

    private final ApplicationEventPublisher events;

    private final TransactionTemplate transactions;

    private final Clock clock;

    private final HotSpares spares;

    ReservationLifecycle(
            ReservationRepository reservations,
            AllocationRepository allocations,
            CapacityCalendarRepository calendar,
            Quotas quotas,
            Tenancy tenancy,
            AuditLog audit,
            ApplicationEventPublisher events,
            TransactionTemplate transactions,
            Clock clock,
            HotSpares spares) {
        this.spares = spares;
        this.reservations = reservations;
        this.allocations = allocations;
        this.calendar = calendar;
        this.quotas = quotas;
        this.tenancy = tenancy;
        this.audit = audit;
        this.events = events;
        this.transactions = transactions;
        this.clock = clock;
    }

    public Optional<Reservation> find(UUID id) {
        return reservations.find(id).map(ReservationRepository.Stored::reservation);
    }

    /** The reservation's nodes that are out of service now, each as "hostname is STATE (reason)". */
    public List<String> nodesOutOfService(UUID id) {
        return reservations.outOfService(id);
    }

    /**
     * What the reservation holds, from the one record of holding: each live allocation's node and interval (a node
     * replaced inside the window is two holdings; a preempted reservation's end at its notice's end).
     */
    public List<Holding> holdings(UUID id) {
        return allocations.holdings(id);
    }

    /**
     * Who else still holds, at {@code at} or later, a node this reservation holds, from before this reservation's
     * allocation of it begins: the cluster that must let go of the node first. Each holding is the other
     * reservation's, with the instant it lets go.
     */
    public List<Holding> heldBefore(UUID id, Instant at) {
        return allocations.heldBefore(id, at);
    }

    /** The reservations that hold the node, by their live allocations, at {@code since} or later. */
    public List<UUID> holdersOf(String hostname, Instant since) {
        return allocations.holdersOf(hostname, since);
    }

    /** The nodes the reservation let go of before its end (replaced), by its allocations. */
    public List<String> nodesLetGo(UUID id) {
        return allocations.nodesLetGo(id);
    }

    /**
     * Provisioning gave up: the reservation becomes {@code FAILED} with the reason, and, as a cancellation would,
     * releases its nodes from the next whole minute on (from its start, if it has not begun). Its quota use is given
     * back whole, since nothing is charged for a reservation that never got its cluster.
     */
    public Reservation markFailed(UUID id, String reason) {
        Reservation current = find(id).orElseThrow(() -> notFound(id));
        UUID tenantId = tenancy.find(current.tenant())
                .orElseThrow(() -> new IllegalStateException("Tenant " + current.tenant() + " vanished"))
                .id();
        return transactions.execute(status -> {
            quotas.lock(tenantId);
            ReservationRepository.Stored stored = reservations.findForUpdate(id).orElseThrow(() -> notFound(id));
            Reservation before = stored.reservation();
            Instant now = clock.instant();
            Reservation after = before.markFailed(reason, now);
            if (after == before) {
                return before;
            }
            Instant freedFrom = later(nextMinute(now), before.startsAt());
            if (freedFrom.isBefore(before.endsAt())) {
                allocations
                        .endAt(id, stored.poolId(), freedFrom)
                        .forEach((freed, gaps) -> calendar.returned(stored.poolId(), gaps, freed));
            }
            quotas.release(id, tenantId, before.startsAt());
            reservations.updateProgress(after);
            audit.record(new AuditRecord(
                    before.tenant(), "reservation.failed", "reservation", id.toString(), before, after));
            events.publishEvent(new ReservationFailed(
                    id,
                    before.tenant(),
                    before.pool(),
                    reason,
                    now,
                    freedFrom.isBefore(before.endsAt()) ? freedFrom : before.endsAt()));
            return after;
        });
    }

    /**
     * Replaces a node of the reservation that failed its checks by one of the pool's hot spares when one is free
     * (taken out of the spares, which are topped up in the same transaction), else by a free, available node of
     * the same pool with the booking's CUDA driver, as close to the nodes it keeps as one can be had (their rack,
     * then their InfiniBand block; else where a booking would look first) for the rest of the window: from
     * its start when it has not begun, else from the next whole minute. The failed node keeps what it already
     * served and gets the rest back in its gaps (taking it out of service is the inventory's). One transaction,
     * under the reservation's and both nodes' locks; audited. Empty, and nothing changed, when no node is free or
     * the failed node is not the reservation's.
     *
     * @param avoid hostnames not to use (nodes that already failed for this reservation)
     */
    public Optional<String> replaceNode(UUID id, String failed, List<String> avoid) {
        return transactions.execute(status -> {
            ReservationRepository.Stored stored = reservations.findForUpdate(id).orElseThrow(() -> notFound(id));
            Reservation before = stored.reservation();
            Instant from = later(nextMinute(clock.instant()), before.startsAt());
            if (!before.nodes().contains(failed) || !from.isBefore(before.endsAt())) {
                return Optional.<String>empty();
            }
            TimeWindow rest = new TimeWindow(from, before.endsAt());
            List<String> excludedNames = new ArrayList<>(before.nodes());
            excludedNames.addAll(avoid);
            List<Long> excluded = allocations.nodeIds(stored.poolId(), excludedNames);
            Optional<AllocationRepository.Locked> spare = allocations.takeSpare(
                    stored.poolId(), rest, before.cluster().cudaDriver(), excluded);
            List<String> kept =
                    before.nodes().stream().filter(node -> !node.equals(failed)).toList();
            List<AllocationRepository.Locked> found = spare.map(List::of)
                    .orElseGet(() -> allocations.lockReplacement(
                            stored.poolId(), rest, before.cluster().cudaDriver(), excluded, kept));
            if (found.isEmpty()
                    || allocations
                            .freeFor(List.of(found.getFirst().nodeId()), rest)
                            .isEmpty()) {
                status.setRollbackOnly();
                return Optional.<String>empty();
            }
            AllocationRepository.Locked replacement = found.getFirst();
            long failedId =
                    allocations.nodeIds(stored.poolId(), List.of(failed)).getFirst();
            allocations.lockNodes(List.of(failedId));
            allocations.release(id, failedId, from);
            calendar.returned(
                    stored.poolId(), allocations.returnToGaps(List.of(failedId), stored.poolId(), rest), rest);
            List<AllocationRepository.Gap> gaps = allocations.takeFromGaps(List.of(replacement.nodeId()), rest);
            allocations.allocate(id, stored.poolId(), List.of(replacement.nodeId()), rest);
            calendar.taken(stored.poolId(), gaps, rest);
            Reservation after = before.replacingNode(failed, replacement.hostname());
            reservations.updateNodes(after);
            audit.record(new AuditRecord(
                    before.tenant(), "reservation.node-replaced", "reservation", id.toString(), before, after));
            if (spare.isPresent()) {
                spares.tookOne(stored.poolId());
            }
            return Optional.of(replacement.hostname());
        });
    }

    private static Instant nextMinute(Instant now) {
        Instant minute = now.truncatedTo(ChronoUnit.MINUTES);
        return minute.equals(now) ? now : minute.plus(Duration.ofMinutes(1));
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static AllotException notFound(UUID id) {
        return AllotException.notFound("Reservation " + id);
    }
}
