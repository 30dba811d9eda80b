package dev.allot.booking;

import dev.allot.booking.calendar.Capacity;
import dev.allot.shared.AllotException;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Tenant;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/** Where a booking refused for lack of capacity would fit instead: what its refusal names for a client to book again. */
@Component
class AlternativeSearch {

    private static final int ALTERNATIVE_CANDIDATES = 4;

    /** How far past the requested start a refusal looks for alternatives ({@code GET /capacity/earliest}: further). */
    private static final Duration ALTERNATIVES_WITHIN = Duration.ofDays(7);

    private final Capacity capacity;

    AlternativeSearch(Capacity capacity) {
        this.capacity = capacity;
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
    void addTo(AllotException refused, Caller caller, Tenant tenant, BookingRequest request) {
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
            // unless reclaiming after a notice comes sooner (NodeSecuring put that start there)
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
}
