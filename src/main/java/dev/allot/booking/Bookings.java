package dev.allot.booking;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.booking.allocation.AllocationRepository;
import dev.allot.booking.approval.Approvals;
import dev.allot.booking.calendar.Capacity;
import dev.allot.booking.calendar.CapacityCalendarRepository;
import dev.allot.booking.calendar.Lending;
import dev.allot.booking.events.ReservationCancelled;
import dev.allot.booking.events.ReservationConfirmed;
import dev.allot.booking.events.ReservationDequeued;
import dev.allot.booking.events.ReservationExtended;
import dev.allot.booking.events.ReservationQueued;
import dev.allot.booking.queue.BookingQueue;
import dev.allot.booking.sharing.Reclaiming;
import dev.allot.booking.sharing.Repacking;
import dev.allot.booking.spec.ClusterChoices;
import dev.allot.booking.spec.Labels;
import dev.allot.booking.spec.OrchestratorCheck;
import dev.allot.booking.spec.SshPublicKeys;
import dev.allot.booking.store.ReservationRepository;
import dev.allot.booking.volumes.StoredVolumes;
import dev.allot.inventory.Inventory;
import dev.allot.inventory.NodeMemory;
import dev.allot.inventory.Pool;
import dev.allot.quota.QuotaDecision;
import dev.allot.quota.QuotaExceededException;
import dev.allot.quota.Quotas;
import dev.allot.shared.AllotException;
import dev.allot.shared.CursorPage;
import dev.allot.shared.IdempotencyKey;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.ListQuery;
import dev.allot.shared.TimeWindow;
import dev.allot.shared.UtcText;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Project;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Books, quotes, extends and cancels. Each change is one transaction that takes, in this order, the tenant's
 * quota row, the reservation row, then node rows (bookings skip locked nodes, others wait in id order), so
 * no two changes deadlock; PostgreSQL's exclusion constraint on allocations is the final guarantee.
 */
@Service
public class Bookings {

    private static final String CAPACITY_NOT_AVAILABLE = "capacity_not_available";

    private static final int ALTERNATIVE_CANDIDATES = 4;

    /** How far past the requested start a refusal looks for alternatives ({@code GET /capacity/earliest}: further). */
    private static final Duration ALTERNATIVES_WITHIN = Duration.ofDays(7);

    private static final int CONTENDED_ATTEMPTS = 6;

    private static final Logger log = LoggerFactory.getLogger(Bookings.class);

    /** GPUs a tenant's reservation holds in a pool, and when: what the calendar marks as the viewer's own. */
    public record Held(String pool, int gpus, Instant startsAt, Instant endsAt) {}

    public record Booked(Reservation reservation, boolean replayed) {

        /** Waiting in its pool's queue ({@code whenUnavailable: QUEUE}), holding nothing yet. */
        public boolean queued() {
            return reservation.stage() == ReservationStatus.QUEUED && reservation.cancelledAt() == null;
        }
    }

    /**
     * A quote: whether capacity and quota allow the request, and its price when the quota does. {@code heldBack}:
     * the refusal a booking would get because other tenants do not lend what it would borrow (see {@link Lending}).
     */
    /** {@code needsApproval}: booked, it would wait for a tenant admin's approval ({@link Approvals}). */
    public record Quote(
            boolean fits,
            int freeNodes,
            int neededNodes,
            @Nullable QuotaDecision decision,
            @Nullable QuotaExceededException refusal,
            @Nullable AllotException heldBack,
            Reclaim reclaim,
            boolean needsApproval) {}

    /**
     * What a quote says of reclaiming: {@code victims}, how many reservations of other tenants the booking would
     * preempt to fit (0: none); {@code notice}, how long a preempted reservation that runs keeps its nodes.
     */
    public record Reclaim(int victims, Duration notice) {}

    /** What a request names, checked; {@code blocks}: the pool's InfiniBand blocks, in the order a booking searches them. */
    private record Target(Tenant tenant, Project project, Pool pool, int nodes, List<String> blocks) {}

    private final ReservationRepository reservations;

    private final AllocationRepository allocations;

    private final CapacityCalendarRepository calendar;

    private final Tenancy tenancy;

    private final Inventory inventory;

    private final Quotas quotas;

    private final AuditLog audit;

    private final ApplicationEventPublisher events;

    private final TransactionTemplate transactions;

    private final Clock clock;

    private final Capacity capacity;

    private final Reclaiming reclaiming;

    private final Repacking repacking;

    private final Lending lending;

    private final List<ClusterChoices> choices;

    private final NodeMemory nodeMemory;

    private final StoredVolumes volumes;

    private final OrchestratorCheck orchestrators;

    private final Approvals approvals;

    Bookings(
            ReservationRepository reservations,
            AllocationRepository allocations,
            CapacityCalendarRepository calendar,
            Tenancy tenancy,
            Inventory inventory,
            Quotas quotas,
            AuditLog audit,
            ApplicationEventPublisher events,
            TransactionTemplate transactions,
            Clock clock,
            BookingProperties properties,
            Capacity capacity,
            Reclaiming reclaiming,
            Repacking repacking,
            Lending lending,
            List<ClusterChoices> choices,
            NodeMemory nodeMemory,
            StoredVolumes volumes,
            OrchestratorCheck orchestrators,
            Approvals approvals) {
        this.approvals = approvals;
        this.nodeMemory = nodeMemory;
        this.volumes = volumes;
        this.orchestrators = orchestrators;
        this.capacity = capacity;
        this.choices = List.copyOf(choices);
        this.reclaiming = reclaiming;
        this.repacking = repacking;
        this.lending = lending;
        this.reservations = reservations;
        this.allocations = allocations;
        this.calendar = calendar;
        this.tenancy = tenancy;
        this.inventory = inventory;
        this.quotas = quotas;
        this.audit = audit;
        this.events = events;
        this.transactions = new BookingTransactions(transactions, properties.concurrentChanges());
        this.clock = clock;
    }

    /**
     * Books. With an idempotency key the reservation keeps it, in the booking's transaction: a retry finds the booking
     * made for it there (under the tenant's quota lock, so even a twin racing it), whatever happened to the first
     * answer.
     */
    public Booked book(
            Caller caller, String tenantSlug, @Nullable IdempotencyKey idempotencyKey, BookingRequest asked) {
        return book(caller, tenantSlug, idempotencyKey, asked, null);
    }

    /**
     * Books, or, with {@code queueWithin} ({@code whenUnavailable: QUEUE}), when no node set is free for the asked
     * window nor for the earliest start within the start window, queues it ({@code QUEUED}, holding nothing; see
     * {@link BookingQueue}). Refusals other than for capacity (quota, bad input) are answered as for any booking.
     */
    public Booked book(
            Caller caller,
            String tenantSlug,
            @Nullable IdempotencyKey idempotencyKey,
            BookingRequest asked,
            BookingQueue.@Nullable StartWindow queueWithin) {
        Tenant tenant = tenancy.readableInProjects(caller, tenantSlug);
        caller.requireBookingIn(tenantSlug, asked.project());
        BookingRequest request = asked.bookedBy(caller);
        Target target;
        try {
            tenant.requireActive();
            target = target(tenant, request);
            if (queueWithin != null) {
                queueWithin.requireHolds(request.window().start());
            }
        } catch (AllotException refused) {
            // a retry the checks refuse now (its window has begun since: a pipeline's step retried after it waited
            // for the cluster) is answered from the booking it made; a booking that passes them finds it below
            if (idempotencyKey == null) {
                throw refused;
            }
            return replay(tenant, idempotencyKey).orElseThrow(() -> refused);
        }
        try {
            return retryingLostRaces(patient -> transactions.execute(status -> {
                quotas.lock(tenant.id());
                if (idempotencyKey != null) {
                    Optional<Booked> replay = replay(tenant, idempotencyKey);
                    if (replay.isPresent()) {
                        return replay.get();
                    }
                }
                return new Booked(
                        bookLocked(UUID.randomUUID(), null, target, request, idempotencyKey, patient, caller.subject()),
                        false);
            }));
        } catch (DuplicateKeyException ex) {
            if (idempotencyKey == null) {
                throw ex;
            }
            return replay(tenant, idempotencyKey).orElseThrow(() -> ex);
        } catch (AllotException refused) {
            if (refused.code().equals(CAPACITY_NOT_AVAILABLE)) {
                withAlternatives(refused, caller, tenant, request);
                if (queueWithin != null) {
                    return laterOrQueued(caller, tenant, target, request, idempotencyKey, queueWithin, refused);
                }
            }
            throw refused;
        }
    }

    /**
     * Runs a booking transaction again when it lost a race ({@link Contended}), up to {@value #CONTENDED_ATTEMPTS}
     * times in all, the last two {@code patient} (waiting for the locks others hold instead of passing them by).
     */
    private <T> T retryingLostRaces(Function<Boolean, T> attempt) {
        for (int tries = 1; ; tries++) {
            try {
                return attempt.apply(tries >= CONTENDED_ATTEMPTS - 1);
            } catch (Contended lost) {
                if (tries >= CONTENDED_ATTEMPTS) {
                    log.warn(
                            "A guaranteed booking lost a race in each of its {} tries and is refused: {}",
                            CONTENDED_ATTEMPTS,
                            lost.refusal.getMessage());
                    throw lost.refusal;
                }
                BookingTransactions.pause(ThreadLocalRandom.current().nextLong(10, 40L * tries));
            }
        }
    }

    /**
     * A queueable booking that did not fit as asked: booked at the refusal's {@code earliestStart} when that lies in
     * its start window, else queued.
     */
    private Booked laterOrQueued(
            Caller caller,
            Tenant tenant,
            Target target,
            BookingRequest request,
            @Nullable IdempotencyKey key,
            BookingQueue.StartWindow within,
            AllotException refused) {
        Object earliest = refused.properties().get("earliestStart");
        if (earliest != null && within.holds(Instant.parse(earliest.toString()))) {
            Instant start = Instant.parse(earliest.toString());
            try {
                return book(caller, tenant.slug(), key, request.startingAt(start), null);
            } catch (AllotException again) {
                if (!again.code().equals(CAPACITY_NOT_AVAILABLE)) {
                    throw again;
                }
            }
        }
        return transactions.execute(status -> {
            quotas.lock(tenant.id());
            if (key != null) {
                Optional<Booked> replay = replay(tenant, key);
                if (replay.isPresent()) {
                    return replay.get();
                }
            }
            // refused here as it would be booked (422 quota_exceeded): only capacity is waited for
            QuotaDecision decision = quotas.evaluate(
                    tenant.id(), target.project().slug(), target.pool().gpuType(), request.window(), request.gpus());
            Instant now = clock.instant();
            Reservation queued = new Reservation(
                            UUID.randomUUID(),
                            tenant.slug(),
                            target.project().slug(),
                            target.pool().name(),
                            target.pool().gpuType().code(),
                            request.gpus(),
                            request.window().start(),
                            request.window().end(),
                            null,
                            request.preemptible() || decision.preemptible(),
                            request.cluster(),
                            decision,
                            List.of(),
                            0,
                            now,
                            request.labels())
                    .queued(now);
            reservations.insert(
                    queued,
                    new ReservationRepository.Keys(
                            tenant.id(), target.project().id(), target.pool().id()),
                    key);
            reservations.queue(queued, within.earliest(), within.latest(), caller.subject());
            audit.record(AuditRecord.created(
                    queued.tenant(), "reservation", queued.id().toString(), queued));
            events.publishEvent(new ReservationQueued(
                    queued.id(),
                    queued.tenant(),
                    queued.project(),
                    queued.pool(),
                    queued.gpus(),
                    request.window().duration(),
                    within.earliest(),
                    within.latest(),
                    now));
            return new Booked(queued, false);
        });
    }

    /**
     * Books a {@code QUEUED} reservation of {@code tenant} for {@code window}, through the same transaction as any
     * booking (its quota checks, reclaiming for a guarantee): the reservation becomes {@code CONFIRMED} (or waits for
     * approval). Empty when it is no longer queued (booked or cancelled meanwhile); a refusal when it does not fit.
     */
    public Optional<Reservation> bookQueued(Tenant tenant, UUID id, TimeWindow window) {
        ReservationRepository.Stored found = reservations.find(tenant.id(), id).orElse(null);
        if (found == null || found.reservation().stage() != ReservationStatus.QUEUED) {
            return Optional.empty();
        }
        Reservation queued = found.reservation();
        BookingRequest request = new BookingRequest(
                queued.project(),
                queued.pool(),
                queued.gpus(),
                window,
                queued.cluster(),
                queued.preemptible(),
                queued.labels());
        Target target = target(tenant, request);
        String requestedBy = reservations.requestedBy(id);
        return retryingLostRaces(patient -> transactions.execute(status -> {
            quotas.lock(tenant.id());
            ReservationRepository.Stored stored =
                    reservations.findForUpdate(tenant.id(), id).orElse(null);
            if (stored == null || stored.reservation().stage() != ReservationStatus.QUEUED) {
                return Optional.<Reservation>empty();
            }
            return Optional.of(bookLocked(
                    id, stored.reservation(), target, request, null, patient, requestedBy == null ? "" : requestedBy));
        }));
    }

    /**
     * A guaranteed booking refused while reclaiming or repacking passed by what other transactions held (a victim, a
     * node, a reservation to move): a lost race rather than a lack of capacity, so {@link #book} runs it again, up to
     * {@value #CONTENDED_ATTEMPTS} times in all; its transaction rolled back.
     */
    private static final class Contended extends RuntimeException {

        private final AllotException refusal;

        Contended(AllotException refusal) {
            super(refusal.getMessage(), null, false, false);
            this.refusal = refusal;
        }
    }

    /**
     * Adds to a refusal for lack of capacity where the same booking would fit instead: {@code earliestStart} and up
     * to three {@code alternatives} (the same length, from the requested start on, within the tenant's quota), so
     * a client can book again at once. Looked up after the failed transaction rolled back, outside the bound on
     * concurrent bookings, among the first {@value #ALTERNATIVE_CANDIDATES} starts where the nodes are free and
     * within {@link #ALTERNATIVES_WITHIN} of the requested start, so that a refusal's cost stays bounded however full
     * the pool is (at 90 % occupancy an unbounded search took 1.4 s a refusal); a search that is itself refused (a
     * window longer than the quota allows) adds nothing.
     */
    private void withAlternatives(AllotException refused, Caller caller, Tenant tenant, BookingRequest request) {
        List<Capacity.Fit> fits;
        try {
            fits = capacity.earliest(
                    caller,
                    request.pool(),
                    request.gpus(),
                    request.window().duration(),
                    request.window().start(),
                    tenant.slug(),
                    ALTERNATIVE_CANDIDATES,
                    request.window().start().plus(ALTERNATIVES_WITHIN));
        } catch (AllotException ex) {
            return;
        }
        if (!fits.isEmpty()) {
            // unless reclaiming after a notice comes sooner (bookLocked put that start there)
            Object afterNotice = refused.properties().get("earliestStart");
            if (afterNotice == null || fits.getFirst().startsAt().isBefore(Instant.parse(afterNotice.toString()))) {
                refused.with("earliestStart", fits.getFirst().startsAt().toString());
            }
            refused.with(
                    "alternatives",
                    fits.stream()
                            .limit(3)
                            .map(fit -> Map.of(
                                    "startsAt",
                                    fit.startsAt().toString(),
                                    "endsAt",
                                    fit.endsAt().toString()))
                            .toList());
        }
    }

    /**
     * Books under the tenant's quota lock. {@code patient}: the last attempt of a guaranteed booking that lost races
     * before. It books alone in the pool ({@link AllocationRepository#turnInPool}): the bookings under way there end first and
     * later ones wait, so its plan (victims, moves, free nodes) cannot be overtaken again; reclaiming and repacking
     * also wait for what other transactions hold instead of passing it by. Other bookings share the pool.
     */
    private Reservation bookLocked(
            UUID id,
            @Nullable Reservation queued,
            Target target,
            BookingRequest request,
            @Nullable IdempotencyKey key,
            boolean patient,
            String requestedBy) {
        Pool pool = target.pool();
        TimeWindow window = request.window();
        UUID tenantId = target.tenant().id();
        allocations.turnInPool(pool.id(), patient);
        // The nodes first (the quota lock is already held, so the lock order is unchanged): a booking refused for
        // lack of them is then decided by reading its quota, without writing its usage only to roll it back.
        List<AllocationRepository.Locked> nodes =
                lockFreeNodes(target, window, request.cluster().cudaDriver(), target.nodes(), List.of());
        if (nodes.size() < target.nodes()) {
            QuotaDecision would =
                    quotas.evaluate(tenantId, target.project().slug(), pool.gpuType(), window, request.gpus());
            lending.requireRoomBeyondHeld(tenantId, pool.gpuType(), window, request.gpus(), would);
            // reclaiming only when the free nodes do not suffice, and only for a booking within the guarantee
            boolean reclaims = would.reservedOnly() && !request.preemptible();
            boolean contended = false;
            if (reclaims) {
                Reclaiming.Reclaimed reclaimed = reclaiming.reclaim(
                        pool,
                        tenantId,
                        target.nodes(),
                        window,
                        request.cluster().cudaDriver(),
                        patient);
                contended = reclaimed.mayFindRoomAgain();
                // the nodes reclaiming freed for this booking first, so that every victim holds a node it takes
                List<Long> tried = new ArrayList<>(
                        nodes.stream().map(AllocationRepository.Locked::nodeId).toList());
                List<AllocationRepository.Locked> freed = new ArrayList<>();
                List<Long> planned = reclaimed.nodes().stream()
                        .filter(node -> !tried.contains(node))
                        .toList();
                if (!planned.isEmpty()) {
                    keepFree(allocations.lockFirst(planned, target.nodes() - nodes.size()), window, tried, freed);
                }
                List<AllocationRepository.Locked> more = lockFreeNodes(
                        target,
                        window,
                        request.cluster().cudaDriver(),
                        target.nodes() - nodes.size() - freed.size(),
                        tried);
                nodes = Stream.of(nodes, freed, more).flatMap(List::stream).toList();
                if (nodes.size() < target.nodes()) {
                    // free in every hour but not on the same nodes for the whole window: move what has not started,
                    // reclaiming together with the moves when reclaiming alone found no nodes
                    List<Long> taken = nodes.stream()
                            .map(AllocationRepository.Locked::nodeId)
                            .toList();
                    Repacking.Made made = repacking.makeRoom(
                            pool,
                            target.nodes() - nodes.size(),
                            window,
                            request.cluster().cudaDriver(),
                            taken,
                            patient,
                            reclaimed.reclaimable(),
                            victims -> reclaiming.preemptAll(victims, reclaimed.sweepOrder(), pool, window, patient));
                    nodes = Stream.concat(nodes.stream(), made.nodes().stream()).toList();
                    contended |= made.contended();
                    if (nodes.size() < target.nodes()
                            && !made.contended()
                            && !reclaimed.sweepOrder().isEmpty()) {
                        // the last resort: preempt by priority and age, for repacking to move others onto what frees
                        contended |= reclaiming
                                .sweep(
                                        pool,
                                        target.nodes(),
                                        window,
                                        request.cluster().cudaDriver(),
                                        patient,
                                        reclaimed.sweepOrder())
                                .contended();
                        List<Long> held = nodes.stream()
                                .map(AllocationRepository.Locked::nodeId)
                                .toList();
                        List<AllocationRepository.Locked> freedBySweep = lockFreeNodes(
                                target, window, request.cluster().cudaDriver(), target.nodes() - nodes.size(), held);
                        nodes = Stream.concat(nodes.stream(), freedBySweep.stream())
                                .toList();
                        if (nodes.size() < target.nodes()) {
                            Repacking.Made after = repacking.makeRoom(
                                    pool,
                                    target.nodes() - nodes.size(),
                                    window,
                                    request.cluster().cudaDriver(),
                                    nodes.stream()
                                            .map(AllocationRepository.Locked::nodeId)
                                            .toList(),
                                    patient);
                            nodes = Stream.concat(nodes.stream(), after.nodes().stream())
                                    .toList();
                            contended |= after.contended();
                        }
                    }
                }
            }
            if (nodes.size() < target.nodes()) {
                AllotException refused = capacityNotAvailable(pool.name() + " has " + nodes.size() + " of the "
                                + target.nodes() + " nodes needed free for the whole window")
                        .with("reclaimConsidered", reclaims);
                if (reclaims) {
                    startAfterNotice(target, request)
                            .ifPresent(start -> refused.with("earliestStart", start.toString()));
                }
                if (reclaims && !contended) {
                    log.warn(
                            "A guaranteed booking of {} is refused after reclaiming and repacking found no room, with no "
                                    + "race lost (patient try: {}): {} of {} nodes for {}",
                            target.tenant().slug(),
                            patient,
                            nodes.size(),
                            target.nodes(),
                            window);
                }
                throw contended ? new Contended(refused) : refused;
            }
        }
        QuotaDecision decision =
                quotas.reserve(id, tenantId, target.project().slug(), pool.gpuType(), window, request.gpus());
        lending.requireRoomBeyondHeld(tenantId, pool.gpuType(), window, request.gpus(), decision);
        lending.requireGuaranteeHeadroom(
                tenantId, pool.gpuType(), window, request.gpus(), decision, request.preemptible());
        List<Long> nodeIds =
                nodes.stream().map(AllocationRepository.Locked::nodeId).toList();
        List<String> hostnames =
                nodes.stream().map(AllocationRepository.Locked::hostname).toList();
        Reservation reservation;
        if (queued == null) {
            reservation = new Reservation(
                    id,
                    target.tenant().slug(),
                    target.project().slug(),
                    pool.name(),
                    pool.gpuType().code(),
                    request.gpus(),
                    window.start(),
                    window.end(),
                    null,
                    request.preemptible() || decision.preemptible(),
                    request.cluster(),
                    decision,
                    hostnames,
                    0,
                    clock.instant(),
                    request.labels());
            reservations.insert(
                    reservation,
                    new ReservationRepository.Keys(
                            target.tenant().id(), target.project().id(), pool.id()),
                    key);
        } else {
            reservation = queued.dequeued(window, decision, hostnames);
            reservations.dequeued(reservation);
            events.publishEvent(new ReservationDequeued(
                    id, reservation.tenant(), ReservationDequeued.Outcome.BOOKED, null, clock.instant()));
        }
        volumes.book(reservation, target.tenant().id());
        List<AllocationRepository.Gap> gaps = allocations.takeFromGaps(nodeIds, window);
        allocate(() -> allocations.allocate(id, pool.id(), nodeIds, window));
        calendar.taken(pool.id(), gaps, window);
        if (quotas.needsApproval(tenantId, pool.gpuType(), window, request.gpus(), decision)) {
            // held, but neither provisioned nor billed until approved (Approvals)
            Reservation pending = reservation.pendingApproval(clock.instant());
            approvals.pending(pending, requestedBy);
            audit.record(AuditRecord.created(pending.tenant(), "reservation", id.toString(), pending));
            return pending;
        }
        if (queued == null) {
            audit.record(AuditRecord.created(reservation.tenant(), "reservation", id.toString(), reservation));
        } else {
            audit.record(new AuditRecord(
                    reservation.tenant(), "reservation.dequeued", "reservation", id.toString(), queued, reservation));
        }
        events.publishEvent(new ReservationConfirmed(
                id,
                reservation.tenant(),
                reservation.project(),
                pool.name(),
                reservation.gpus(),
                window.start(),
                window.end(),
                reservation.nodes(),
                reservation.labels()));
        return reservation;
    }

    /**
     * A guaranteed booking refused because the reservations it would reclaim keep their nodes for their notice: when
     * the same booking would get its nodes by reclaiming once the notice has run out, and stay within the guarantee
     * then, that start ({@link Reclaiming#afterNotice}).
     */
    private Optional<Instant> startAfterNotice(Target target, BookingRequest request) {
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
            Target target, TimeWindow window, @Nullable String driver, int count, List<Long> excluded) {
        List<AllocationRepository.Locked> chosen = new ArrayList<>();
        List<Long> tried = new ArrayList<>(excluded);
        for (int round = 0; round < 3 && chosen.size() < count; round++) {
            List<AllocationRepository.Locked> locked = allocations.lockFreeNodes(
                    target.pool().id(), target.blocks(), window, driver, count - chosen.size(), tried);
            if (locked.isEmpty()) {
                break;
            }
            keepFree(locked, window, tried, chosen);
        }
        if (chosen.size() < count) {
            keepFree(
                    allocations.lockFreeNodesWaiting(
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
        Set<Long> free = new HashSet<>(allocations.freeFor(
                locked.stream().map(AllocationRepository.Locked::nodeId).toList(), window));
        locked.stream().filter(node -> free.contains(node.nodeId())).forEach(chosen::add);
    }

    @Transactional(readOnly = true)
    public Quote quote(Caller caller, String tenantSlug, BookingRequest request) {
        Tenant tenant = tenancy.readableInProjects(caller, tenantSlug);
        if (!caller.canSeeProject(tenantSlug, request.project())) {
            caller.requireBookingIn(tenantSlug, request.project()); // refuses, naming the projects it may book in
        }
        Target target = target(tenant, request);
        int free = allocations.countFree(
                target.pool().id(), request.window(), request.cluster().cudaDriver());
        try {
            QuotaDecision decision = quotas.evaluate(
                    tenant.id(), target.project().slug(), target.pool().gpuType(), request.window(), request.gpus());
            AllotException heldBack = lending.heldBack(
                            tenant.id(), target.pool().gpuType(), request.window(), request.gpus(), decision)
                    .or(() -> lending.guaranteeHeadroom(
                            tenant.id(),
                            target.pool().gpuType(),
                            request.window(),
                            request.gpus(),
                            decision,
                            request.preemptible()))
                    .orElse(null);
            // a booking within the guarantee also fits where it would reclaim borrowed nodes
            boolean fits = free >= target.nodes();
            int victims = 0;
            if (!fits && decision.reservedOnly() && !request.preemptible()) {
                OptionalInt reclaimed = reclaiming.victimsFor(
                        target.pool(),
                        tenant.id(),
                        target.nodes(),
                        request.window(),
                        request.cluster().cudaDriver());
                fits = reclaimed.isPresent();
                victims = reclaimed.orElse(0);
            }
            return new Quote(
                    heldBack == null && fits,
                    free,
                    target.nodes(),
                    decision,
                    null,
                    heldBack,
                    new Reclaim(victims, reclaiming.notice()),
                    quotas.needsApproval(
                            tenant.id(), target.pool().gpuType(), request.window(), request.gpus(), decision));
        } catch (QuotaExceededException refusal) {
            return new Quote(
                    false, free, target.nodes(), null, refusal, null, new Reclaim(0, reclaiming.notice()), false);
        }
    }

    /** One reservation; a caller confined to some projects of the tenant finds only theirs (404 for others). */
    public Reservation get(Caller caller, String tenantSlug, UUID id) {
        Tenant tenant = tenancy.readableInProjects(caller, tenantSlug);
        return reservations
                .find(tenant.id(), id)
                .map(ReservationRepository.Stored::reservation)
                .filter(found -> caller.canSeeProject(tenantSlug, found.project()))
                .orElseThrow(() -> notFound(id));
    }

    public CursorPage<Reservation> list(
            Caller caller,
            String tenantSlug,
            @Nullable ReservationStatus status,
            @Nullable Instant from,
            @Nullable Instant to,
            @Nullable String project,
            List<Labels.Filter> labels,
            ListQuery page) {
        Tenant tenant = tenancy.readableInProjects(caller, tenantSlug);
        if (from != null && to != null && !to.isAfter(from)) {
            throw InvalidInputException.of("to", "must be after from");
        }
        ReservationRepository.Filter filter = new ReservationRepository.Filter(
                status,
                from,
                to,
                clock.instant(),
                project,
                labels,
                caller.confinedTo(tenantSlug).orElse(null));
        return reservations.list(tenant.id(), filter, page);
    }

    /**
     * The tenant's reservations not cancelled in {@code [from, to)}, at most {@code limit}, in start order (of the
     * caller's projects only, for a caller confined to some).
     */
    public List<Held> held(Caller caller, String tenantSlug, Instant from, Instant to, int limit) {
        Tenant tenant = tenancy.readableInProjects(caller, tenantSlug);
        return reservations.held(
                tenant.id(), from, to, limit, caller.confinedTo(tenantSlug).orElse(null));
    }

    public Reservation extend(Caller caller, String tenantSlug, UUID id, Instant newEnd, @Nullable String ifMatch) {
        Tenant tenant = changing(caller, tenantSlug);
        return transactions.execute(status -> {
            quotas.lock(tenant.id());
            ReservationRepository.Stored stored =
                    reservations.findForUpdate(tenant.id(), id).orElseThrow(() -> notFound(id));
            Reservation before = stored.reservation();
            requireChangeOf(caller, before);
            Instant now = clock.instant();
            before.requireExtensible(newEnd, ifMatch, now);
            // the nodes it holds at its end: not one replaced inside its window (out of service, and no longer its)
            List<Long> nodeIds = allocations.nodesAt(id, before.endsAt());
            if (allocations.lockNodes(nodeIds).stream().anyMatch(state -> !state.equals("AVAILABLE"))) {
                throw capacityNotAvailable("A node of reservation " + id + " is out of service");
            }
            TimeWindow extension = new TimeWindow(before.endsAt(), newEnd);
            if (allocations.freeFor(nodeIds, extension).size() < nodeIds.size()) {
                throw capacityNotAvailable("Its nodes are not all free until " + UtcText.of(newEnd));
            }
            Pool pool = inventory.existingPool(before.pool());
            TimeWindow whole = new TimeWindow(before.startsAt(), newEnd);
            QuotaDecision decision = quotas.extend(
                    id, tenant.id(), before.project(), pool.gpuType(), whole, before.endsAt(), before.gpus());
            lending.requireRoomBeyondHeld(tenant.id(), pool.gpuType(), extension, before.gpus(), decision);
            lending.requireGuaranteeHeadroom(
                    tenant.id(), pool.gpuType(), extension, before.gpus(), decision, before.preemptible());
            List<AllocationRepository.Gap> gaps = allocations.takeFromGaps(nodeIds, extension);
            allocate(() -> allocations.extendTo(id, before.endsAt(), newEnd));
            calendar.taken(stored.poolId(), gaps, extension);
            Reservation after = before.extendTo(newEnd, decision, now);
            reservations.update(after);
            audit.record(
                    new AuditRecord(tenantSlug, "reservation.extended", "reservation", id.toString(), before, after));
            events.publishEvent(new ReservationExtended(id, tenantSlug, before.endsAt(), newEnd));
            return after;
        });
    }

    public Reservation cancel(Caller caller, String tenantSlug, UUID id) {
        Tenant tenant = changing(caller, tenantSlug);
        return cancel(tenant.id(), tenantSlug, id, "reservation.cancelled", found -> requireChangeOf(caller, found));
    }

    /**
     * The tenant a caller may change reservations of: as before for a caller with only a tenant role (a VIEWER is
     * refused before anything is read); a caller with project roles there is checked per reservation
     * ({@link #requireChangeOf}).
     */
    private Tenant changing(Caller caller, String tenantSlug) {
        Tenant tenant = tenancy.readableInProjects(caller, tenantSlug);
        if (caller.projectRolesIn(tenantSlug).isEmpty()) {
            caller.requireRole(tenantSlug, TenantRole.MEMBER);
        }
        tenant.requireActive();
        return tenant;
    }

    /** A reservation of a project the caller does not see is not there (404); one it only reads is a 403. */
    private static void requireChangeOf(Caller caller, Reservation reservation) {
        if (!caller.canSeeProject(reservation.tenant(), reservation.project())) {
            throw notFound(reservation.id());
        }
        caller.requireBookingIn(reservation.tenant(), reservation.project());
    }

    /**
     * Ends a live reservation early on the platform's behalf (the tenant's idleReclaim policy): the same path as a
     * tenant's cancel, so nodes, quota and billing stop once, at the same instant, audited as
     * {@code reservation.released-idle}. Refused like a cancel when the reservation has already ended.
     */
    public Reservation releaseIdle(UUID tenantId, String tenantSlug, UUID id) {
        return cancel(tenantId, tenantSlug, id, "reservation.released-idle", found -> {});
    }

    private Reservation cancel(
            UUID tenantId, String tenantSlug, UUID id, String action, Consumer<Reservation> allowed) {
        return transactions.execute(status -> {
            quotas.lock(tenantId);
            ReservationRepository.Stored stored =
                    reservations.findForUpdate(tenantId, id).orElseThrow(() -> notFound(id));
            Reservation before = stored.reservation();
            allowed.accept(before);
            Instant now = clock.instant();
            Reservation.Cancellation cancellation = before.cancel(now);
            Instant freedFrom = cancellation.freedFrom();
            if (freedFrom != null) {
                allocations
                        .endAt(id, stored.poolId(), freedFrom)
                        .forEach((freed, gaps) -> calendar.returned(stored.poolId(), gaps, freed));
                quotas.release(id, tenantId, freedFrom);
            }
            Reservation after = cancellation.cancelled();
            reservations.update(after);
            audit.record(new AuditRecord(tenantSlug, action, "reservation", id.toString(), before, after));
            events.publishEvent(
                    new ReservationCancelled(id, tenantSlug, now, freedFrom != null ? freedFrom : before.endsAt()));
            return after;
        });
    }

    // Validation shared by booking and quoting: everything a request can be refused for before any write.

    private Target target(Tenant tenant, BookingRequest request) {
        List<InvalidInputException.FieldError> errors = new ArrayList<>();
        Optional<Pool> pool = inventory.pool(request.pool());
        if (pool.isPresent() && !pool.get().openTo(tenant.slug())) {
            // dedicated to other tenants: to this one, as if it were not there (API.md)
            throw AllotException.notFound("Pool " + request.pool());
        }
        if (pool.isEmpty()) {
            errors.add(new InvalidInputException.FieldError("pool", "no such pool"));
        }
        Optional<Project> project = tenancy.project(tenant.slug(), request.project());
        if (project.isEmpty()) {
            errors.add(new InvalidInputException.FieldError("project", "no such project in tenant " + tenant.slug()));
        }
        pool.flatMap(found -> orchestrators.refusal(found, request.cluster().orchestrator()))
                .ifPresent(errors::add);
        String driver = request.cluster().cudaDriver();
        if (pool.isPresent() && driver != null) {
            List<String> offered = inventory.cudaDrivers(pool.get());
            if (!offered.contains(driver)) {
                errors.add(new InvalidInputException.FieldError(
                        "cluster.cudaDriver",
                        "is not offered by pool " + request.pool() + " (offered: " + String.join(", ", offered) + ")"));
            }
        }
        errors.addAll(SshPublicKeys.refusals(request.cluster().sshPublicKeys()));
        if (pool.isPresent()) {
            choices.forEach(choice -> errors.addAll(choice.refusals(pool.get().name(), request.cluster())));
        }
        Integer shm = request.cluster().sharedMemoryGi();
        int nodeGi = pool.isPresent() && shm != null ? nodeMemory.of(pool.get()) : Integer.MAX_VALUE;
        if (shm != null && shm > nodeGi) {
            errors.add(new InvalidInputException.FieldError(
                    "cluster.sharedMemoryGi",
                    "is above the memory of pool " + request.pool() + "'s nodes (" + nodeGi + " GiB)"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        Inventory.PoolSize size = inventory.size(pool.get());
        request.requireFits(pool.get(), size.withoutSpares(), clock.instant());
        // read here, outside the booking's transaction, so that this replica keeps them
        return new Target(
                tenant,
                project.get(),
                pool.get(),
                request.nodes(pool.get()),
                allocations.blocks(pool.get().id()));
    }

    private Optional<Booked> replay(Tenant tenant, IdempotencyKey key) {
        return reservations.byIdempotencyKey(tenant.id(), key).map(stored -> {
            key.requireSameRequest(Objects.requireNonNull(stored.requestHash(), "a row found by its key has its hash"));
            return new Booked(stored.reservation(), true);
        });
    }

    /** Runs an allocation write; a lost race on the exclusion constraint (SQLSTATE 23P01) becomes a 409. */
    private static void allocate(Runnable write) {
        try {
            write.run();
        } catch (DataIntegrityViolationException ex) {
            if (ex.getMostSpecificCause() instanceof SQLException sql && "23P01".equals(sql.getSQLState())) {
                throw capacityNotAvailable("Another reservation took one of the nodes first");
            }
            throw ex;
        }
    }

    private static AllotException capacityNotAvailable(String detail) {
        return AllotException.conflict(CAPACITY_NOT_AVAILABLE, detail);
    }

    private static AllotException notFound(UUID id) {
        return AllotException.notFound("Reservation " + id);
    }
}
