package dev.allot.booking;

import dev.allot.booking.allocation.AllocationRepository;
import dev.allot.booking.allocation.FreeNodeRepository;
import dev.allot.booking.calendar.Lending;
import dev.allot.booking.sharing.Reclaiming;
import dev.allot.booking.sharing.Repacking;
import dev.allot.inventory.Pool;
import dev.allot.quota.QuotaDecision;
import dev.allot.quota.QuotaExceededException;
import dev.allot.quota.Quotas;
import dev.allot.shared.AllotException;
import dev.allot.shared.TimeWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The first step of a booking under the tenant's quota lock: the nodes it gets. The free nodes first; for a booking
 * within the guarantee that they do not suffice for, those reclaiming frees, then those repacking moves others off,
 * then, as the last resort, those a sweep by priority and age frees. Refused for lack of capacity when they still fall
 * short ({@link Contended} when a race lost may be why).
 */
@Component
class NodeSecuring {

    private static final Logger log = LoggerFactory.getLogger(NodeSecuring.class);

    /** Nodes gathered by a step, and whether it passed by what other transactions held. */
    private record Gathered(List<AllocationRepository.Locked> nodes, boolean contended) {}

    private final AllocationRepository allocations;

    private final FreeNodeRepository freeNodes;

    private final Quotas quotas;

    private final Lending lending;

    private final Reclaiming reclaiming;

    private final Repacking repacking;

    NodeSecuring(
            AllocationRepository allocations,
            FreeNodeRepository freeNodes,
            Quotas quotas,
            Lending lending,
            Reclaiming reclaiming,
            Repacking repacking) {
        this.allocations = allocations;
        this.freeNodes = freeNodes;
        this.quotas = quotas;
        this.lending = lending;
        this.reclaiming = reclaiming;
        this.repacking = repacking;
    }

    /**
     * The nodes for a booking, locked. {@code patient}: the last attempt of a guaranteed booking that lost races
     * before. It books alone in the pool ({@link AllocationRepository#turnInPool}): the bookings under way there end
     * first and later ones wait, so its plan (victims, moves, free nodes) cannot be overtaken again; reclaiming and
     * repacking also wait for what other transactions hold instead of passing it by. Other bookings share the pool.
     */
    List<AllocationRepository.Locked> nodesFor(BookingTarget target, BookingRequest request, boolean patient) {
        allocations.turnInPool(target.pool().id(), patient);
        // The nodes first (the quota lock is already held, so the lock order is unchanged): a booking refused for
        // lack of them is then decided by reading its quota, without writing its usage only to roll it back.
        List<AllocationRepository.Locked> nodes =
                lockFreeNodes(target, request.window(), request.cluster().cudaDriver(), target.nodes(), List.of());
        if (nodes.size() < target.nodes()) {
            return beyondFree(target, request, nodes, patient);
        }
        return nodes;
    }

    /** Too few free nodes: reclaiming and repacking for a booking within the guarantee, else (or then) the refusal. */
    private List<AllocationRepository.Locked> beyondFree(
            BookingTarget target, BookingRequest request, List<AllocationRepository.Locked> free, boolean patient) {
        Pool pool = target.pool();
        TimeWindow window = request.window();
        UUID tenantId = target.tenant().id();
        QuotaDecision would =
                quotas.evaluate(tenantId, target.project().slug(), pool.gpuType(), window, request.gpus());
        lending.requireRoomBeyondHeld(tenantId, pool.gpuType(), window, request.gpus(), would);
        // reclaiming only when the free nodes do not suffice, and only for a booking within the guarantee
        boolean reclaims = would.reservedOnly() && !request.preemptible();
        Gathered gathered = reclaims ? reclaimFor(target, request, free, patient) : new Gathered(free, false);
        List<AllocationRepository.Locked> nodes = gathered.nodes();
        if (nodes.size() < target.nodes()) {
            throw refusal(target, request, nodes.size(), reclaims, gathered.contended(), patient);
        }
        return nodes;
    }

    private Gathered reclaimFor(
            BookingTarget target, BookingRequest request, List<AllocationRepository.Locked> nodes, boolean patient) {
        TimeWindow window = request.window();
        Reclaiming.Reclaimed reclaimed = reclaiming.reclaim(
                target.pool(),
                target.tenant().id(),
                target.nodes(),
                window,
                request.cluster().cudaDriver(),
                patient);
        boolean contended = reclaimed.mayFindRoomAgain();
        // the nodes reclaiming freed for this booking first, so that every victim holds a node it takes
        List<Long> tried = new ArrayList<>(ids(nodes));
        List<AllocationRepository.Locked> freed = new ArrayList<>();
        List<Long> planned =
                reclaimed.nodes().stream().filter(node -> !tried.contains(node)).toList();
        if (!planned.isEmpty()) {
            keepFree(freeNodes.lockFirst(planned, target.nodes() - nodes.size()), window, tried, freed);
        }
        List<AllocationRepository.Locked> more = lockFreeNodes(
                target, window, request.cluster().cudaDriver(), target.nodes() - nodes.size() - freed.size(), tried);
        List<AllocationRepository.Locked> gathered =
                Stream.of(nodes, freed, more).flatMap(List::stream).toList();
        if (gathered.size() < target.nodes()) {
            Gathered repacked = repackFor(target, request, gathered, patient, reclaimed);
            return new Gathered(repacked.nodes(), contended | repacked.contended());
        }
        return new Gathered(gathered, contended);
    }

    /**
     * Free in every hour but not on the same nodes for the whole window: move what has not started, reclaiming
     * together with the moves when reclaiming alone found no nodes.
     */
    private Gathered repackFor(
            BookingTarget target,
            BookingRequest request,
            List<AllocationRepository.Locked> held,
            boolean patient,
            Reclaiming.Reclaimed reclaimed) {
        Pool pool = target.pool();
        TimeWindow window = request.window();
        List<Long> taken = ids(held);
        Repacking.Made made = repacking.makeRoom(
                pool,
                target.nodes() - held.size(),
                window,
                request.cluster().cudaDriver(),
                taken,
                patient,
                reclaimed.reclaimable(),
                victims -> reclaiming.preemptAll(victims, reclaimed.sweepOrder(), pool, window, patient));
        List<AllocationRepository.Locked> nodes =
                Stream.concat(held.stream(), made.nodes().stream()).toList();
        if (nodes.size() < target.nodes()
                && !made.contended()
                && !reclaimed.sweepOrder().isEmpty()) {
            Gathered swept = sweepFor(target, request, nodes, patient, reclaimed);
            return new Gathered(swept.nodes(), made.contended() | swept.contended());
        }
        return new Gathered(nodes, made.contended());
    }

    /** The last resort: preempt by priority and age, for repacking to move others onto what frees. */
    private Gathered sweepFor(
            BookingTarget target,
            BookingRequest request,
            List<AllocationRepository.Locked> held,
            boolean patient,
            Reclaiming.Reclaimed reclaimed) {
        Pool pool = target.pool();
        TimeWindow window = request.window();
        boolean contended = reclaiming
                .sweep(pool, target.nodes(), window, request.cluster().cudaDriver(), patient, reclaimed.sweepOrder())
                .contended();
        List<Long> heldIds = ids(held);
        List<AllocationRepository.Locked> freedBySweep =
                lockFreeNodes(target, window, request.cluster().cudaDriver(), target.nodes() - held.size(), heldIds);
        List<AllocationRepository.Locked> nodes =
                Stream.concat(held.stream(), freedBySweep.stream()).toList();
        if (nodes.size() < target.nodes()) {
            Repacking.Made after = repacking.makeRoom(
                    pool,
                    target.nodes() - nodes.size(),
                    window,
                    request.cluster().cudaDriver(),
                    ids(nodes),
                    patient);
            nodes = Stream.concat(nodes.stream(), after.nodes().stream()).toList();
            contended |= after.contended();
        }
        return new Gathered(nodes, contended);
    }

    private RuntimeException refusal(
            BookingTarget target,
            BookingRequest request,
            int found,
            boolean reclaims,
            boolean contended,
            boolean patient) {
        AllotException refused = BookingRefusals.capacityNotAvailable(
                        target.pool().name() + " has " + found + " of the " + target.nodes()
                                + " nodes needed free for the whole window")
                .with("reclaimConsidered", reclaims);
        if (reclaims) {
            startAfterNotice(target, request).ifPresent(start -> refused.with("earliestStart", start.toString()));
        }
        if (reclaims && !contended) {
            log.warn(
                    "A guaranteed booking of {} is refused after reclaiming and repacking found no room, with no "
                            + "race lost (patient try: {}): {} of {} nodes for {}",
                    target.tenant().slug(),
                    patient,
                    found,
                    target.nodes(),
                    request.window());
        }
        return contended ? new Contended(refused) : refused;
    }

    /**
     * A guaranteed booking refused because the reservations it would reclaim keep their nodes for their notice: when
     * the same booking would get its nodes by reclaiming once the notice has run out, and stay within the guarantee
     * then, that start ({@link Reclaiming#afterNotice}).
     */
    private Optional<Instant> startAfterNotice(BookingTarget target, BookingRequest request) {
        return reclaiming
                .afterNotice(
                        target.pool(),
                        target.tenant().id(),
                        target.nodes(),
                        request.window(),
                        request.cluster().cudaDriver())
                .filter(later -> {
                    try {
                        return quotas.evaluate(
                                        target.tenant().id(),
                                        target.project().slug(),
                                        target.pool().gpuType(),
                                        later,
                                        request.gpus())
                                .reservedOnly();
                    } catch (QuotaExceededException outside) {
                        return false;
                    }
                })
                .map(TimeWindow::start);
    }

    /**
     * Locks up to {@code count} free nodes, not those {@code excluded} ({@link AllocationRepository#lockFreeNodes}: the nodes
     * of the blocks searched, not every free node of the pool); a few rounds pick replacements for nodes found taken
     * after locking. Those rounds never wait: a node another transaction holds is passed by. When they come up short,
     * a last round waits for the free nodes others hold ({@link AllocationRepository#lockFreeNodesWaiting}), since a lock on a
     * node is often a change of another window of it (a booking, a cancel, a node replaced in a later reservation)
     * and refusing for it would be a false {@code 409}. Fewer when fewer are free.
     */
    private List<AllocationRepository.Locked> lockFreeNodes(
            BookingTarget target, TimeWindow window, @Nullable String driver, int count, List<Long> excluded) {
        List<AllocationRepository.Locked> chosen = new ArrayList<>();
        List<Long> tried = new ArrayList<>(excluded);
        for (int round = 0; round < 3 && chosen.size() < count; round++) {
            List<AllocationRepository.Locked> locked = freeNodes.lockFreeNodes(
                    target.pool().id(), target.blocks(), window, driver, count - chosen.size(), tried);
            if (locked.isEmpty()) {
                break;
            }
            keepFree(locked, window, tried, chosen);
        }
        if (chosen.size() < count) {
            keepFree(
                    freeNodes.lockFreeNodesWaiting(
                            target.pool().id(), target.blocks(), window, driver, count - chosen.size(), tried),
                    window,
                    tried,
                    chosen);
        }
        return chosen;
    }

    /** Adds to {@code chosen} those of the nodes just locked that are still free (the gaps may have changed before). */
    private void keepFree(
            List<AllocationRepository.Locked> locked,
            TimeWindow window,
            List<Long> tried,
            List<AllocationRepository.Locked> chosen) {
        locked.forEach(node -> tried.add(node.nodeId()));
        Set<Long> free = new HashSet<>(allocations.freeFor(ids(locked), window));
        locked.stream().filter(node -> free.contains(node.nodeId())).forEach(chosen::add);
    }

    /**
     * A guaranteed booking refused while reclaiming or repacking passed by what other transactions held (a victim, a
     * node, a reservation to move): a lost race rather than a lack of capacity, so {@link Reserving} runs it again; its
     * transaction rolled back.
     */
    static final class Contended extends RuntimeException {

        private final AllotException refusal;

        Contended(AllotException refusal) {
            super(refusal.getMessage(), null, false, false);
            this.refusal = refusal;
        }

        AllotException refusal() {
            return refusal;
        }
    }

    private static List<Long> ids(List<AllocationRepository.Locked> nodes) {
        return nodes.stream().map(AllocationRepository.Locked::nodeId).toList();
    }
}
