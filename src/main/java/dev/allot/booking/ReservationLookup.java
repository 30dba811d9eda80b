package dev.allot.booking;

import dev.allot.booking.Bookings.Held;
import dev.allot.booking.spec.Labels;
import dev.allot.booking.store.ReservationRepository;
import dev.allot.shared.CursorPage;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.ListQuery;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/** The read side of bookings: one reservation, a page of them, and what a tenant holds when, as a caller may see them. */
@Component
class ReservationLookup {

    private final Tenancy tenancy;

    private final ReservationRepository reservations;

    private final Clock clock;

    ReservationLookup(Tenancy tenancy, ReservationRepository reservations, Clock clock) {
        this.tenancy = tenancy;
        this.reservations = reservations;
        this.clock = clock;
    }

    /** One reservation; a caller confined to some projects of the tenant finds only theirs (404 for others). */
    Reservation get(Caller caller, String tenantSlug, UUID id) {
        Tenant tenant = tenancy.readableInProjects(caller, tenantSlug);
        return reservations
                .find(tenant.id(), id)
                .map(ReservationRepository.Stored::reservation)
                .filter(found -> caller.canSeeProject(tenantSlug, found.project()))
                .orElseThrow(() -> BookingRefusals.notFound(id));
    }

    CursorPage<Reservation> list(
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
    List<Held> held(Caller caller, String tenantSlug, Instant from, Instant to, int limit) {
        Tenant tenant = tenancy.readableInProjects(caller, tenantSlug);
        return reservations.held(
                tenant.id(), from, to, limit, caller.confinedTo(tenantSlug).orElse(null));
    }
}
