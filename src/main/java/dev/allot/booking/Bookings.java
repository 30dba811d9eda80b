package dev.allot.booking;

import dev.allot.booking.approval.Approvals;
import dev.allot.booking.queue.BookingQueue;
import dev.allot.booking.spec.Labels;
import dev.allot.quota.QuotaDecision;
import dev.allot.quota.QuotaExceededException;
import dev.allot.shared.AllotException;
import dev.allot.shared.CursorPage;
import dev.allot.shared.IdempotencyKey;
import dev.allot.shared.ListQuery;
import dev.allot.shared.TimeWindow;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Books, quotes, extends and cancels: the booking module's front door, which other modules and the controllers call.
 * Each change is one transaction that takes, in this order, the tenant's quota row, the reservation row, then node
 * rows (bookings skip locked nodes, others wait in id order), so no two changes deadlock; PostgreSQL's exclusion
 * constraint on allocations is the final guarantee. The steps are {@link Reserving} (booking and queueing),
 * {@link Quoting}, {@link Extending}, {@link Cancelling} and {@link ReservationLookup} (the reads).
 */
@Service
public class Bookings {

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
     * the refusal a booking would get because other tenants do not lend what it would borrow (see {@link dev.allot.booking.calendar.Lending}).
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

    private final Tenancy tenancy;

    private final Reserving reserving;

    private final Quoting quoting;

    private final ReservationLookup lookup;

    private final Extending extending;

    private final Cancelling cancelling;

    Bookings(
            Tenancy tenancy,
            Reserving reserving,
            Quoting quoting,
            ReservationLookup lookup,
            Extending extending,
            Cancelling cancelling) {
        this.tenancy = tenancy;
        this.reserving = reserving;
        this.quoting = quoting;
        this.lookup = lookup;
        this.extending = extending;
        this.cancelling = cancelling;
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
        return reserving.book(caller, tenantSlug, idempotencyKey, asked, queueWithin);
    }

    /**
     * Books a {@code QUEUED} reservation of {@code tenant} for {@code window}, through the same transaction as any
     * booking (its quota checks, reclaiming for a guarantee): the reservation becomes {@code CONFIRMED} (or waits for
     * approval). Empty when it is no longer queued (booked or cancelled meanwhile); a refusal when it does not fit.
     */
    public Optional<Reservation> bookQueued(Tenant tenant, UUID id, TimeWindow window) {
        return reserving.bookQueued(tenant, id, window);
    }

    @Transactional(readOnly = true)
    public Quote quote(Caller caller, String tenantSlug, BookingRequest request) {
        return quoting.quote(caller, tenantSlug, request);
    }

    /** One reservation; a caller confined to some projects of the tenant finds only theirs (404 for others). */
    public Reservation get(Caller caller, String tenantSlug, UUID id) {
        return lookup.get(caller, tenantSlug, id);
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
        return lookup.list(caller, tenantSlug, status, from, to, project, labels, page);
    }

    /**
     * The tenant's reservations not cancelled in {@code [from, to)}, at most {@code limit}, in start order (of the
     * caller's projects only, for a caller confined to some).
     */
    public List<Held> held(Caller caller, String tenantSlug, Instant from, Instant to, int limit) {
        return lookup.held(caller, tenantSlug, from, to, limit);
    }

    public Reservation extend(Caller caller, String tenantSlug, UUID id, Instant newEnd, @Nullable String ifMatch) {
        Tenant tenant = changing(caller, tenantSlug);
        return extending.extend(tenant, tenantSlug, id, newEnd, ifMatch, found -> requireChangeOf(caller, found));
    }

    public Reservation cancel(Caller caller, String tenantSlug, UUID id) {
        Tenant tenant = changing(caller, tenantSlug);
        return cancelling.cancel(
                tenant.id(), tenantSlug, id, "reservation.cancelled", found -> requireChangeOf(caller, found));
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
            throw BookingRefusals.notFound(reservation.id());
        }
        caller.requireBookingIn(reservation.tenant(), reservation.project());
    }

    /**
     * Ends a live reservation early on the platform's behalf (the tenant's idleReclaim policy): the same path as a
     * tenant's cancel, so nodes, quota and billing stop once, at the same instant, audited as
     * {@code reservation.released-idle}. Refused like a cancel when the reservation has already ended.
     */
    public Reservation releaseIdle(UUID tenantId, String tenantSlug, UUID id) {
        return cancelling.cancel(tenantId, tenantSlug, id, "reservation.released-idle", found -> {});
    }
}
