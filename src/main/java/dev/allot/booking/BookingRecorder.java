package dev.allot.booking;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.booking.allocation.AllocationRepository;
import dev.allot.booking.approval.Approvals;
import dev.allot.booking.calendar.CapacityCalendarRepository;
import dev.allot.booking.calendar.Lending;
import dev.allot.booking.events.ReservationConfirmed;
import dev.allot.booking.events.ReservationDequeued;
import dev.allot.booking.store.ReservationRepository;
import dev.allot.booking.volumes.StoredVolumes;
import dev.allot.inventory.Pool;
import dev.allot.quota.QuotaDecision;
import dev.allot.quota.Quotas;
import dev.allot.shared.IdempotencyKey;
import dev.allot.shared.TimeWindow;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * The second step of a booking under the tenant's quota lock, once its nodes are locked ({@link NodeSecuring}): its
 * quota, its row (new, or the queued one it was), its volumes, its allocation and the calendar, then its approval or
 * its confirmation.
 */
@Component
class BookingRecorder {

    private final Quotas quotas;

    private final Lending lending;

    private final ReservationRepository reservations;

    private final StoredVolumes volumes;

    private final AllocationRepository allocations;

    private final CapacityCalendarRepository calendar;

    private final Approvals approvals;

    private final AuditLog audit;

    private final ApplicationEventPublisher events;

    private final Clock clock;

    BookingRecorder(
            Quotas quotas,
            Lending lending,
            ReservationRepository reservations,
            StoredVolumes volumes,
            AllocationRepository allocations,
            CapacityCalendarRepository calendar,
            Approvals approvals,
            AuditLog audit,
            ApplicationEventPublisher events,
            Clock clock) {
        this.quotas = quotas;
        this.lending = lending;
        this.reservations = reservations;
        this.volumes = volumes;
        this.allocations = allocations;
        this.calendar = calendar;
        this.approvals = approvals;
        this.audit = audit;
        this.events = events;
        this.clock = clock;
    }

    /** Records the booking {@code id} (the {@code queued} one when it was queued) on the {@code nodes} it locked. */
    Reservation record(
            UUID id,
            @Nullable Reservation queued,
            BookingTarget target,
            BookingRequest request,
            @Nullable IdempotencyKey key,
            List<AllocationRepository.Locked> nodes,
            String requestedBy) {
        Pool pool = target.pool();
        TimeWindow window = request.window();
        UUID tenantId = target.tenant().id();
        QuotaDecision decision =
                quotas.reserve(id, tenantId, target.project().slug(), pool.gpuType(), window, request.gpus());
        lending.requireRoomBeyondHeld(tenantId, pool.gpuType(), window, request.gpus(), decision);
        lending.requireGuaranteeHeadroom(
                tenantId, pool.gpuType(), window, request.gpus(), decision, request.preemptible());
        List<Long> nodeIds =
                nodes.stream().map(AllocationRepository.Locked::nodeId).toList();
        List<String> hostnames =
                nodes.stream().map(AllocationRepository.Locked::hostname).toList();
        Reservation reservation = queued == null
                ? inserted(id, target, request, key, decision, hostnames)
                : dequeued(id, queued, window, decision, hostnames);
        volumes.book(reservation, target.tenant().id());
        List<AllocationRepository.Gap> gaps = allocations.takeFromGaps(nodeIds, window);
        BookingRefusals.allocate(() -> allocations.allocate(id, pool.id(), nodeIds, window));
        calendar.taken(pool.id(), gaps, window);
        if (quotas.needsApproval(tenantId, pool.gpuType(), window, request.gpus(), decision)) {
            // held, but neither provisioned nor billed until approved (Approvals)
            Reservation pending = reservation.pendingApproval(clock.instant());
            approvals.pending(pending, requestedBy);
            audit.record(AuditRecord.created(pending.tenant(), "reservation", id.toString(), pending));
            return pending;
        }
        confirmed(queued, reservation, pool, window);
        return reservation;
    }

    private Reservation inserted(
            UUID id,
            BookingTarget target,
            BookingRequest request,
            @Nullable IdempotencyKey key,
            QuotaDecision decision,
            List<String> hostnames) {
        Pool pool = target.pool();
        TimeWindow window = request.window();
        Reservation reservation = new Reservation(
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
        return reservation;
    }

    private Reservation dequeued(
            UUID id, Reservation queued, TimeWindow window, QuotaDecision decision, List<String> hostnames) {
        Reservation reservation = queued.dequeued(window, decision, hostnames);
        reservations.dequeued(reservation);
        events.publishEvent(new ReservationDequeued(
                id, reservation.tenant(), ReservationDequeued.Outcome.BOOKED, null, clock.instant()));
        return reservation;
    }

    private void confirmed(@Nullable Reservation queued, Reservation reservation, Pool pool, TimeWindow window) {
        String id = reservation.id().toString();
        if (queued == null) {
            audit.record(AuditRecord.created(reservation.tenant(), "reservation", id, reservation));
        } else {
            audit.record(new AuditRecord(
                    reservation.tenant(), "reservation.dequeued", "reservation", id, queued, reservation));
        }
        events.publishEvent(new ReservationConfirmed(
                reservation.id(),
                reservation.tenant(),
                reservation.project(),
                pool.name(),
                reservation.gpus(),
                window.start(),
                window.end(),
                reservation.nodes(),
                reservation.labels()));
    }
}
