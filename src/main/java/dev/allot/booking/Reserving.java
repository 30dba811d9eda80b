package dev.allot.booking;

import dev.allot.booking.Bookings.Booked;
import dev.allot.booking.allocation.AllocationRepository;
import dev.allot.booking.queue.BookingQueue;
import dev.allot.booking.store.ReservationRepository;
import dev.allot.quota.Quotas;
import dev.allot.shared.AllotException;
import dev.allot.shared.IdempotencyKey;
import dev.allot.shared.TimeWindow;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Books: each booking one transaction that takes, in this order, the tenant's quota row, the reservation row, then
 * node rows (bookings skip locked nodes, others wait in id order), run again when it lost a race; with an idempotency
 * key, a retry is answered from the booking made for it. A refusal for lack of capacity names where the same booking
 * would fit ({@link AlternativeSearch}); a queueable one is booked later or queued.
 */
@Component
class Reserving {

    private static final int CONTENDED_ATTEMPTS = 6;

    private static final Logger log = LoggerFactory.getLogger(Reserving.class);

    private final Tenancy tenancy;

    private final Quotas quotas;

    private final ReservationRepository reservations;

    private final TransactionTemplate transactions;

    private final RequestValidation validation;

    private final NodeSecuring nodes;

    private final BookingRecorder recorder;

    private final AlternativeSearch alternatives;

    private final Enqueuing enqueuing;

    Reserving(
            Tenancy tenancy,
            Quotas quotas,
            ReservationRepository reservations,
            ChangeAdmission admission,
            RequestValidation validation,
            NodeSecuring nodes,
            BookingRecorder recorder,
            AlternativeSearch alternatives,
            Enqueuing enqueuing) {
        this.tenancy = tenancy;
        this.quotas = quotas;
        this.reservations = reservations;
        this.transactions = admission.transactions();
        this.validation = validation;
        this.nodes = nodes;
        this.recorder = recorder;
        this.alternatives = alternatives;
        this.enqueuing = enqueuing;
    }

    /**
     * Books, or, with {@code queueWithin} ({@code whenUnavailable: QUEUE}), when no node set is free for the asked
     * window nor for the earliest start within the start window, queues it ({@code QUEUED}, holding nothing; see
     * {@link BookingQueue}). Refusals other than for capacity (quota, bad input) are answered as for any booking.
     */
    Booked book(
            Caller caller,
            String tenantSlug,
            @Nullable IdempotencyKey idempotencyKey,
            BookingRequest asked,
            BookingQueue.@Nullable StartWindow queueWithin) {
        Tenant tenant = tenancy.readableInProjects(caller, tenantSlug);
        caller.requireBookingIn(tenantSlug, asked.project());
        BookingRequest request = asked.bookedBy(caller);
        BookingTarget target;
        try {
            tenant.requireActive();
            target = validation.target(tenant, request);
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
            if (refused.code().equals(BookingRefusals.CAPACITY_NOT_AVAILABLE)) {
                alternatives.addTo(refused, caller, tenant, request);
                if (queueWithin != null) {
                    return laterOrQueued(caller, tenant, target, request, idempotencyKey, queueWithin, refused);
                }
            }
            throw refused;
        }
    }

    /**
     * Runs a booking transaction again when it lost a race ({@link NodeSecuring.Contended}), up to {@value #CONTENDED_ATTEMPTS}
     * times in all, the last two {@code patient} (waiting for the locks others hold instead of passing them by).
     */
    private <T> T retryingLostRaces(Function<Boolean, T> attempt) {
        for (int tries = 1; ; tries++) {
            try {
                return attempt.apply(tries >= CONTENDED_ATTEMPTS - 1);
            } catch (NodeSecuring.Contended lost) {
                if (tries >= CONTENDED_ATTEMPTS) {
                    log.warn(
                            "A guaranteed booking lost a race in each of its {} tries and is refused: {}",
                            CONTENDED_ATTEMPTS,
                            lost.refusal().getMessage());
                    throw lost.refusal();
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
            BookingTarget target,
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
                if (!again.code().equals(BookingRefusals.CAPACITY_NOT_AVAILABLE)) {
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
            return new Booked(enqueuing.queue(caller, target, request, key, within), false);
        });
    }

    /**
     * Books a {@code QUEUED} reservation of {@code tenant} for {@code window}, through the same transaction as any
     * booking (its quota checks, reclaiming for a guarantee): the reservation becomes {@code CONFIRMED} (or waits for
     * approval). Empty when it is no longer queued (booked or cancelled meanwhile); a refusal when it does not fit.
     */
    Optional<Reservation> bookQueued(Tenant tenant, UUID id, TimeWindow window) {
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
        BookingTarget target = validation.target(tenant, request);
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

    /** Books under the tenant's quota lock: its nodes first ({@link NodeSecuring}), then its records. */
    private Reservation bookLocked(
            UUID id,
            @Nullable Reservation queued,
            BookingTarget target,
            BookingRequest request,
            @Nullable IdempotencyKey key,
            boolean patient,
            String requestedBy) {
        List<AllocationRepository.Locked> locked = nodes.nodesFor(target, request, patient);
        return recorder.record(id, queued, target, request, key, locked, requestedBy);
    }

    private Optional<Booked> replay(Tenant tenant, IdempotencyKey key) {
        return reservations.byIdempotencyKey(tenant.id(), key).map(stored -> {
            key.requireSameRequest(Objects.requireNonNull(stored.requestHash(), "a row found by its key has its hash"));
            return new Booked(stored.reservation(), true);
        });
    }
}
