package dev.allot.booking;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.booking.allocation.AllocationRepository;
import dev.allot.booking.calendar.CapacityCalendarRepository;
import dev.allot.booking.events.ReservationCancelled;
import dev.allot.booking.store.ReservationRepository;
import dev.allot.quota.Quotas;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Consumer;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Cancels a reservation, for its tenant or on the platform's behalf: in one transaction under the tenant's quota lock,
 * its nodes, quota and billing stop once, at the same instant (its nodes from when it is cancelled, or not at all
 * when it has not started), audited as {@code action}.
 */
@Component
class Cancelling {

    private final TransactionTemplate transactions;

    private final Quotas quotas;

    private final ReservationRepository reservations;

    private final AllocationRepository allocations;

    private final CapacityCalendarRepository calendar;

    private final AuditLog audit;

    private final ApplicationEventPublisher events;

    private final Clock clock;

    Cancelling(
            ChangeAdmission admission,
            Quotas quotas,
            ReservationRepository reservations,
            AllocationRepository allocations,
            CapacityCalendarRepository calendar,
            AuditLog audit,
            ApplicationEventPublisher events,
            Clock clock) {
        this.transactions = admission.transactions();
        this.quotas = quotas;
        this.reservations = reservations;
        this.allocations = allocations;
        this.calendar = calendar;
        this.audit = audit;
        this.events = events;
        this.clock = clock;
    }

    /** {@code allowed}: refuses a caller that may not change the reservation found. */
    Reservation cancel(UUID tenantId, String tenantSlug, UUID id, String action, Consumer<Reservation> allowed) {
        return transactions.execute(status -> {
            quotas.lock(tenantId);
            ReservationRepository.Stored stored =
                    reservations.findForUpdate(tenantId, id).orElseThrow(() -> BookingRefusals.notFound(id));
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
}
