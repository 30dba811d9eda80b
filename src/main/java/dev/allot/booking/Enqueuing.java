package dev.allot.booking;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.booking.events.ReservationQueued;
import dev.allot.booking.queue.BookingQueue;
import dev.allot.booking.store.ReservationRepository;
import dev.allot.quota.QuotaDecision;
import dev.allot.quota.Quotas;
import dev.allot.shared.IdempotencyKey;
import dev.allot.shared.security.Caller;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * Puts a queueable booking that did not fit in its pool's queue ({@code QUEUED}, holding nothing; see
 * {@link BookingQueue}), under the tenant's quota lock: refused as it would be booked when its quota refuses it (422
 * quota_exceeded), since only capacity is waited for.
 */
@Component
class Enqueuing {

    private final Quotas quotas;

    private final ReservationRepository reservations;

    private final AuditLog audit;

    private final ApplicationEventPublisher events;

    private final Clock clock;

    Enqueuing(
            Quotas quotas,
            ReservationRepository reservations,
            AuditLog audit,
            ApplicationEventPublisher events,
            Clock clock) {
        this.quotas = quotas;
        this.reservations = reservations;
        this.audit = audit;
        this.events = events;
        this.clock = clock;
    }

    Reservation queue(
            Caller caller,
            BookingTarget target,
            BookingRequest request,
            @Nullable IdempotencyKey key,
            BookingQueue.StartWindow within) {
        // refused here as it would be booked (422 quota_exceeded): only capacity is waited for
        QuotaDecision decision = quotas.evaluate(
                target.tenant().id(),
                target.project().slug(),
                target.pool().gpuType(),
                request.window(),
                request.gpus());
        Instant now = clock.instant();
        Reservation queued = new Reservation(
                        UUID.randomUUID(),
                        target.tenant().slug(),
                        target.project().slug(),
                        target.pool().name(),
                        target.pool().gpuType().code(),
                        request.gpus(),
                        request.window().start(),
                        request.window().end(),
                        null,
                        request.preemptible() || decision.preemptible(),
                        request.cluster(),
                        decision,
                        List.of(),
                        0,
                        now,
                        request.labels())
                .queued(now);
        reservations.insert(
                queued,
                new ReservationRepository.Keys(
                        target.tenant().id(),
                        target.project().id(),
                        target.pool().id()),
                key);
        reservations.queue(queued, within.earliest(), within.latest(), caller.subject());
        audit.record(
                AuditRecord.created(queued.tenant(), "reservation", queued.id().toString(), queued));
        events.publishEvent(new ReservationQueued(
                queued.id(),
                queued.tenant(),
                queued.project(),
                queued.pool(),
                queued.gpus(),
                request.window().duration(),
                within.earliest(),
                within.latest(),
                now));
        return queued;
    }
}
