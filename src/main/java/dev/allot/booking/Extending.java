package dev.allot.booking;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.booking.allocation.AllocationRepository;
import dev.allot.booking.calendar.CapacityCalendarRepository;
import dev.allot.booking.calendar.Lending;
import dev.allot.booking.events.ReservationExtended;
import dev.allot.booking.store.ReservationRepository;
import dev.allot.inventory.Inventory;
import dev.allot.inventory.Pool;
import dev.allot.quota.QuotaDecision;
import dev.allot.quota.Quotas;
import dev.allot.shared.TimeWindow;
import dev.allot.shared.UtcText;
import dev.allot.tenancy.Tenant;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Extends a reservation on the nodes it holds at its end: in one transaction under the tenant's quota lock, then its
 * row's and its nodes' locks, refused when a node is out of service or not free for the extension, or when the quota
 * or the guarantees other tenants lend under refuse it.
 */
@Component
class Extending {

    private final TransactionTemplate transactions;

    private final Quotas quotas;

    private final ReservationRepository reservations;

    private final AllocationRepository allocations;

    private final Inventory inventory;

    private final Lending lending;

    private final CapacityCalendarRepository calendar;

    private final AuditLog audit;

    private final ApplicationEventPublisher events;

    private final Clock clock;

    Extending(
            ChangeAdmission admission,
            Quotas quotas,
            ReservationRepository reservations,
            AllocationRepository allocations,
            Inventory inventory,
            Lending lending,
            CapacityCalendarRepository calendar,
            AuditLog audit,
            ApplicationEventPublisher events,
            Clock clock) {
        this.transactions = admission.transactions();
        this.quotas = quotas;
        this.reservations = reservations;
        this.allocations = allocations;
        this.inventory = inventory;
        this.lending = lending;
        this.calendar = calendar;
        this.audit = audit;
        this.events = events;
        this.clock = clock;
    }

    /** {@code allowed}: refuses a caller that may not change the reservation found. */
    Reservation extend(
            Tenant tenant,
            String tenantSlug,
            UUID id,
            Instant newEnd,
            @Nullable String ifMatch,
            Consumer<Reservation> allowed) {
        return transactions.execute(status -> {
            quotas.lock(tenant.id());
            ReservationRepository.Stored stored =
                    reservations.findForUpdate(tenant.id(), id).orElseThrow(() -> BookingRefusals.notFound(id));
            Reservation before = stored.reservation();
            allowed.accept(before);
            Instant now = clock.instant();
            before.requireExtensible(newEnd, ifMatch, now);
            // the nodes it holds at its end: not one replaced inside its window (out of service, and no longer its)
            List<Long> nodeIds = allocations.nodesAt(id, before.endsAt());
            if (allocations.lockNodes(nodeIds).stream().anyMatch(state -> !state.equals("AVAILABLE"))) {
                throw BookingRefusals.capacityNotAvailable("A node of reservation " + id + " is out of service");
            }
            TimeWindow extension = new TimeWindow(before.endsAt(), newEnd);
            if (allocations.freeFor(nodeIds, extension).size() < nodeIds.size()) {
                throw BookingRefusals.capacityNotAvailable("Its nodes are not all free until " + UtcText.of(newEnd));
            }
            Pool pool = inventory.existingPool(before.pool());
            TimeWindow whole = new TimeWindow(before.startsAt(), newEnd);
            QuotaDecision decision = quotas.extend(
                    id, tenant.id(), before.project(), pool.gpuType(), whole, before.endsAt(), before.gpus());
            lending.requireRoomBeyondHeld(tenant.id(), pool.gpuType(), extension, before.gpus(), decision);
            lending.requireGuaranteeHeadroom(
                    tenant.id(), pool.gpuType(), extension, before.gpus(), decision, before.preemptible());
            List<AllocationRepository.Gap> gaps = allocations.takeFromGaps(nodeIds, extension);
            BookingRefusals.allocate(() -> allocations.extendTo(id, before.endsAt(), newEnd));
            calendar.taken(stored.poolId(), gaps, extension);
            Reservation after = before.extendTo(newEnd, decision, now);
            reservations.update(after);
            audit.record(
                    new AuditRecord(tenantSlug, "reservation.extended", "reservation", id.toString(), before, after));
            events.publishEvent(new ReservationExtended(id, tenantSlug, before.endsAt(), newEnd));
            return after;
        });
    }
}
