package dev.allot.booking.queue;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationStatus;
import dev.allot.booking.events.ReservationDequeued;
import dev.allot.booking.store.ReservationRepository;
import dev.allot.quota.Quotas;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Ends the wait of a queued reservation that can no longer be booked: {@code EXPIRED} (its latest start passed before
 * capacity freed, or its request can no longer be booked as asked), under the tenant's quota lock and its row lock,
 * audited and published as dequeued.
 */
@Component
class QueueExpiry {

    private final JdbcClient jdbc;

    private final TransactionTemplate transactions;

    private final Quotas quotas;

    private final ReservationRepository reservations;

    private final AuditLog audit;

    private final ApplicationEventPublisher events;

    private final Clock clock;

    QueueExpiry(
            JdbcClient jdbc,
            TransactionTemplate transactions,
            Quotas quotas,
            ReservationRepository reservations,
            AuditLog audit,
            ApplicationEventPublisher events,
            Clock clock) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.quotas = quotas;
        this.reservations = reservations;
        this.audit = audit;
        this.events = events;
        this.clock = clock;
    }

    /** Expires every queued reservation whose latest start has passed; answers how many. */
    int expireDue() {
        List<Due> due = jdbc.sql("""
				SELECT id, tenant_id, tenant_slug FROM reservation
				WHERE lifecycle_status = 'QUEUED' AND cancelled_at IS NULL AND queue_latest < ?
				ORDER BY queue_latest LIMIT 500""")
                .param(Timestamp.from(QueueOrder.soonest(clock)))
                .query((rs, n) -> new Due(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getString(3)))
                .list();
        int expired = 0;
        for (Due q : due) {
            expired += expire(q.tenantId(), q.tenant(), q.id(), "No capacity freed before its latest start") ? 1 : 0;
        }
        return expired;
    }

    private record Due(UUID id, UUID tenantId, String tenant) {}

    /** Expires the reservation unless it was booked or cancelled meanwhile; answers whether it did. */
    boolean expire(UUID tenantId, String tenant, UUID id, String reason) {
        return Boolean.TRUE.equals(transactions.execute(status -> {
            quotas.lock(tenantId);
            ReservationRepository.Stored stored =
                    reservations.findForUpdate(tenantId, id).orElse(null);
            if (stored == null
                    || stored.reservation().stage() != ReservationStatus.QUEUED
                    || stored.reservation().cancelledAt() != null) {
                return false; // booked or cancelled meanwhile
            }
            Instant now = clock.instant();
            Reservation after = stored.reservation().expiredInQueue(reason, now);
            reservations.updateProgress(after);
            audit.record(new AuditRecord(
                    tenant, "reservation.expired", "reservation", id.toString(), stored.reservation(), after));
            events.publishEvent(new ReservationDequeued(id, tenant, ReservationDequeued.Outcome.EXPIRED, reason, now));
            return true;
        }));
    }
}
