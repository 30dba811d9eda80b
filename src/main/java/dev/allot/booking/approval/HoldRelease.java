package dev.allot.booking.approval;

import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationStatus;
import dev.allot.booking.allocation.AllocationRepository;
import dev.allot.booking.calendar.CapacityCalendarRepository;
import dev.allot.booking.store.ReservationRepository;
import dev.allot.quota.Quotas;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * What a pending reservation held, given back when it is decided against ({@code DENIED} or {@code EXPIRED}), in the
 * deciding transaction: its nodes (and their free gaps and calendar hours) and its quota, from its start on.
 */
@Component
class HoldRelease {

    private final AllocationRepository allocations;

    private final CapacityCalendarRepository calendar;

    private final Quotas quotas;

    private final ReservationRepository reservations;

    private final Clock clock;

    HoldRelease(
            AllocationRepository allocations,
            CapacityCalendarRepository calendar,
            Quotas quotas,
            ReservationRepository reservations,
            Clock clock) {
        this.allocations = allocations;
        this.calendar = calendar;
        this.quotas = quotas;
        this.reservations = reservations;
        this.clock = clock;
    }

    /** Denied or expired: frees its nodes and quota from its start (or now, if later) and stores the outcome. */
    Reservation release(UUID tenantId, ReservationRepository.Stored stored, ReservationStatus outcome, String reason) {
        Reservation before = stored.reservation();
        Instant now = clock.instant();
        Reservation after = before.decidedAgainst(outcome, reason, now);
        Instant freedFrom = now.isAfter(before.startsAt()) ? now : before.startsAt();
        if (freedFrom.isBefore(before.endsAt())) {
            allocations
                    .endAt(before.id(), stored.poolId(), freedFrom)
                    .forEach((freed, gaps) -> calendar.returned(stored.poolId(), gaps, freed));
            quotas.release(before.id(), tenantId, freedFrom);
        }
        reservations.updateProgress(after);
        return after;
    }
}
