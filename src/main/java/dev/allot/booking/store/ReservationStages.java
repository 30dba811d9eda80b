package dev.allot.booking.store;

import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationStatus;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

/**
 * A reservation's lifecycle stage is read, never pushed: booking stores only its own facts (cancelled, preempted,
 * failed: each changes what the reservation holds), and the rest follows from its cluster as provisioning leaves it
 * ({@code PROVISIONING} while it is built, {@code ACTIVE} while it serves, {@code ENDING} while a cluster that
 * served is torn down, {@code COMPLETED} after), or from the clock ({@code CONFIRMED} until the window ends,
 * {@code COMPLETED} after). One SQL expression says it for every read of booking, API and pages alike, so no two
 * of them can disagree; {@link Reservation#status} applies the clock to what it gives.
 */
public final class ReservationStages {

    /** Reservation rows {@code r}, each with its cluster {@code c} (none until provisioning took the booking up). */
    public static final String FROM = "reservation r LEFT JOIN cluster c ON c.reservation_id = r.id";

    /** The stage the rows say, before the clock: null for a reservation nothing has happened to. */
    public static final String STAGE = """
			CASE WHEN r.lifecycle_status IS NOT NULL THEN r.lifecycle_status
			     WHEN c.state IN ('CREATING', 'INSTALLING_DRIVERS', 'RUNNING_ACCEPTANCE_TESTS') THEN 'PROVISIONING'
			     WHEN c.state IN ('READY', 'DEGRADED') THEN 'ACTIVE'
			     WHEN c.state = 'DELETING' AND c.ready_at IS NOT NULL THEN 'ENDING'
			     WHEN c.state IN ('DELETED', 'FAILED') AND c.ready_at IS NOT NULL THEN 'COMPLETED' END""";

    /** Since when the stage holds (read only with a stage). */
    public static final String STAGE_AT = """
			CASE WHEN r.lifecycle_status IS NOT NULL THEN r.status_changed_at ELSE c.state_changed_at END""";

    /** Whether its cluster serves with a node out of order ({@code DEGRADED}): a warning, not a stage of its own. */
    public static final String DEGRADED = "coalesce(c.state = 'DEGRADED', false)";

    /** Whether the reservation is being built or was: a cluster past {@code PENDING}, or a stored fact. */
    public static final String TAKEN_UP =
            "(r.lifecycle_status IS NOT NULL OR coalesce(c.state, 'PENDING') <> 'PENDING')";

    private ReservationStages() {}

    /** Appends the condition "the reservation's status is {@code status} at {@code now}" to a WHERE clause. */
    public static void filter(ReservationStatus status, Instant now, StringBuilder sql, List<Object> params) {
        Timestamp at = Timestamp.from(now);
        switch (status) {
            case CANCELLED -> sql.append(" AND r.cancelled_at IS NOT NULL");
            case CONFIRMED -> {
                sql.append(" AND r.cancelled_at IS NULL AND (" + STAGE + ") IS NULL AND r.ends_at > ?");
                params.add(at);
            }
            case COMPLETED -> {
                sql.append(" AND r.cancelled_at IS NULL AND coalesce(" + STAGE
                        + ", CASE WHEN r.ends_at <= ? THEN 'COMPLETED' END) = 'COMPLETED'");
                params.add(at);
            }
            case PROVISIONING, ACTIVE, ENDING, FAILED, PREEMPTED, PENDING_APPROVAL, DENIED, EXPIRED, QUEUED -> {
                sql.append(" AND r.cancelled_at IS NULL AND (" + STAGE + ") = ?");
                params.add(status.name());
            }
        }
    }
}
