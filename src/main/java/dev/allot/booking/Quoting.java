package dev.allot.booking;

import dev.allot.booking.Bookings.Quote;
import dev.allot.booking.Bookings.Reclaim;
import dev.allot.booking.allocation.FreeCapacityRepository;
import dev.allot.booking.calendar.Lending;
import dev.allot.booking.sharing.Reclaiming;
import dev.allot.quota.QuotaDecision;
import dev.allot.quota.QuotaExceededException;
import dev.allot.quota.Quotas;
import dev.allot.shared.AllotException;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.util.OptionalInt;
import org.springframework.stereotype.Component;

/**
 * Quotes a booking: whether capacity and quota allow it as asked (reclaiming borrowed nodes for one within the
 * guarantee, lending held back), its price when the quota does, and whether it would wait for approval. Writes nothing.
 */
@Component
class Quoting {

    private final Tenancy tenancy;

    private final RequestValidation validation;

    private final FreeCapacityRepository freeCapacity;

    private final Quotas quotas;

    private final Lending lending;

    private final Reclaiming reclaiming;

    Quoting(
            Tenancy tenancy,
            RequestValidation validation,
            FreeCapacityRepository freeCapacity,
            Quotas quotas,
            Lending lending,
            Reclaiming reclaiming) {
        this.tenancy = tenancy;
        this.validation = validation;
        this.freeCapacity = freeCapacity;
        this.quotas = quotas;
        this.lending = lending;
        this.reclaiming = reclaiming;
    }

    /** Runs in the caller's read-only transaction ({@link Bookings#quote}). */
    Quote quote(Caller caller, String tenantSlug, BookingRequest request) {
        Tenant tenant = tenancy.readableInProjects(caller, tenantSlug);
        if (!caller.canSeeProject(tenantSlug, request.project())) {
            caller.requireBookingIn(tenantSlug, request.project()); // refuses, naming the projects it may book in
        }
        BookingTarget target = validation.target(tenant, request);
        int free = freeCapacity.countFree(
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
}
