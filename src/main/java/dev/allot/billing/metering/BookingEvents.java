package dev.allot.billing.metering;

import dev.allot.billing.config.BillingProperties;
import dev.allot.billing.ledger.Account;
import dev.allot.billing.ledger.Charge;
import dev.allot.billing.ledger.Ledger;
import dev.allot.billing.ledger.Line;
import dev.allot.billing.ledger.Posting;
import dev.allot.billing.webhooks.LifecycleWebhooks;
import dev.allot.booking.events.ReservationCancelled;
import dev.allot.booking.events.ReservationConfirmed;
import dev.allot.booking.events.ReservationExtended;
import dev.allot.booking.events.ReservationPreempted;
import dev.allot.inventory.Inventory;
import dev.allot.inventory.Pool;
import dev.allot.quota.Quotas;
import dev.allot.quota.pricing.BookedSegment;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.stereotype.Component;

/**
 * What billing learns from booking, each event in its own transaction after booking's commit (through the
 * event publication registry: redelivered after a crash, so every step here is idempotent). The split is
 * copied from quota's stored decision; when events arrive out of order, that copy (already shortened by a
 * cancellation or lengthened by an extension) still gives the billable life.
 */
@Component
class BookingEvents {

    private final BillableReservationRepository reservations;

    private final Tenancy tenancy;

    private final Inventory inventory;

    private final Quotas quotas;

    private final Ledger ledger;

    private final BillingProperties properties;

    private final LifecycleWebhooks webhooks;

    BookingEvents(
            BillableReservationRepository reservations,
            Tenancy tenancy,
            Inventory inventory,
            Quotas quotas,
            Ledger ledger,
            BillingProperties properties,
            LifecycleWebhooks webhooks) {
        this.webhooks = webhooks;
        this.reservations = reservations;
        this.tenancy = tenancy;
        this.inventory = inventory;
        this.quotas = quotas;
        this.ledger = ledger;
        this.properties = properties;
    }

    @ApplicationModuleListener
    void on(ReservationConfirmed event) {
        Tenant tenant = tenancy.find(event.tenant()).orElseThrow();
        Pool pool = inventory.existingPool(event.pool());
        List<BookedSegment> segments = quotas.bookedSegments(event.reservationId());
        Instant bookedUntil = segments.isEmpty()
                ? event.startsAt()
                : segments.getLast().during().end();
        Instant endsAt = bookedUntil.isAfter(event.endsAt()) ? bookedUntil : event.endsAt();
        String currency = segments.isEmpty() ? "USD" : segments.getFirst().currency();
        BillableReservation r = new BillableReservation(
                event.reservationId(),
                tenant.id(),
                tenant.slug(),
                event.project(),
                pool.name(),
                pool.gpuType().code(),
                pool.gpusPerNode(),
                event.gpus(),
                event.nodes(),
                event.startsAt(),
                endsAt,
                BigDecimal.ZERO,
                currency,
                null,
                bookedUntil.isBefore(endsAt) ? bookedUntil : null,
                null,
                null,
                BillableReservation.hourOf(event.startsAt()));
        reservations.insert(r, event.labels());
        reservations.insertSegments(r.reservationId(), segments);
        // in the same reaction, so a booking costs one publication less (they are the after-commit work per booking)
        webhooks.confirmed(event);
    }

    @ApplicationModuleListener
    void on(ReservationExtended event) {
        reservations.extend(event.reservationId(), event.endsAt());
        reservations.insertSegments(
                event.reservationId(),
                quotas.bookedSegments(event.reservationId()).stream()
                        .filter(s -> !s.during().start().isBefore(event.previousEndsAt()))
                        .toList());
    }

    /** A preempted reservation is charged nothing from its preemption on, and no cancellation fee. */
    @ApplicationModuleListener
    void on(ReservationPreempted event) {
        reservations.stop(event.reservationId(), event.at());
    }

    @ApplicationModuleListener
    void on(ReservationCancelled event) {
        reservations.cancel(event.reservationId(), event.cancelledAt(), event.freedFrom());
        reservations.find(event.reservationId()).ifPresent(r -> {
            BigDecimal fee = r.cancellationFee(
                    event.cancelledAt(), properties.cancellationFeeShare(), properties.cancellationFeeWithin());
            if (fee.signum() > 0) {
                ledger.post(new Posting(
                        r.tenantId(),
                        Posting.Kind.CANCELLATION_FEE,
                        "fee:" + r.reservationId(),
                        YearMonth.from(event.cancelledAt().atOffset(ZoneOffset.UTC)),
                        "Cancellation fee of reservation " + r.reservationId() + " cancelled before its start",
                        List.of(new Charge(
                                Line.FEE,
                                Account.CANCELLATION_FEES,
                                r.currency(),
                                fee,
                                r.reservationId(),
                                r.project(),
                                r.gpuType(),
                                null,
                                null,
                                0,
                                null))));
            }
        });
    }
}
