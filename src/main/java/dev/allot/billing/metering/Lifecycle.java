package dev.allot.billing.metering;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.billing.ledger.Ledger;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * What provisioning's lifecycle means for billing ({@link ClusterEvents} feeds it). With
 * {@code allot.billing.await-cluster-ready=true} (the default) no hour is metered before billing knows when the
 * cluster became ready. {@code ClusterTornDown} needs nothing: billing stops at the window's end or the
 * cancellation already. Both methods are idempotent (events are redelivered after a crash).
 */
@Service
@Transactional
public class Lifecycle {

    private final BillableReservationRepository reservations;

    private final Ledger ledger;

    private final AuditLog audit;

    Lifecycle(BillableReservationRepository reservations, Ledger ledger, AuditLog audit) {
        this.reservations = reservations;
        this.ledger = ledger;
        this.audit = audit;
    }

    /** Billable from max(window start, ready): a cluster ready late through Allot's fault is not charged. */
    public void clusterReady(UUID reservationId, Instant at) {
        reservations.ready(reservationId, at);
    }

    /**
     * A failed provisioning costs nothing: metering stops, and whatever was posted for the reservation (usage
     * already metered, a fee) is reversed, with the reason, in the current open month.
     */
    public void failed(UUID reservationId, Instant at, String reason) {
        reservations.lock(reservationId).ifPresent(r -> {
            reservations.fail(reservationId, at, reason);
            ledger.reverseAllOf(r.tenantId(), reservationId, "provisioning failed: " + reason);
            audit.record(new AuditRecord(
                    r.tenant(),
                    "billing.reservation-failed",
                    "reservation",
                    reservationId.toString(),
                    null,
                    Map.of("failedAt", at.toString(), "reason", reason)));
        });
    }
}
