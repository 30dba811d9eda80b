package dev.allot.booking;

import dev.allot.booking.store.ReservationStages;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * A team's reservations that have not ended, running ones first (the soonest end first), then the coming ones (the
 * soonest start first), each with what needs its owner's attention: preempted (and until when its nodes stay), its
 * cluster degraded, failed. One query, for a home page.
 */
@Service
@Transactional(readOnly = true)
public class NowAndNext {

    /** What a warning says of a reservation, in the order of urgency. */
    public enum Warning {
        PREEMPTED,
        DEGRADED,
        FAILED
    }

    /**
     * A reservation not ended yet.
     *
     * @param reason why it was preempted or failed
     * @param nodesHeldUntil for a preempted one whose nodes it still holds, when they go
     */
    public record Current(
            UUID id,
            String project,
            String pool,
            String gpuType,
            int gpus,
            Instant startsAt,
            Instant endsAt,
            ReservationStatus status,
            @Nullable String reason,
            @Nullable Instant nodesHeldUntil,
            @Nullable Warning warning) {

        public boolean running(Instant now) {
            return !startsAt.isAfter(now);
        }
    }

    private final JdbcClient jdbc;

    private final Tenancy tenancy;

    private final Clock clock;

    NowAndNext(JdbcClient jdbc, Tenancy tenancy, Clock clock) {
        this.jdbc = jdbc;
        this.tenancy = tenancy;
        this.clock = clock;
    }

    /** At most {@code limit} of the tenant's reservations not cancelled, denied or expired that end after now. */
    public List<Current> of(Caller caller, String tenantSlug, int limit) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        Timestamp now = Timestamp.from(clock.instant());
        return jdbc.sql("SELECT r.id, r.project_slug, r.pool_name, r.gpu_type, r.gpus, r.starts_at, r.ends_at,"
                        + " r.status_reason, " + ReservationStages.STAGE + " AS stage, " + ReservationStages.DEGRADED
                        + " AS degraded, (SELECT max(upper(a.during)) FROM allocation a WHERE a.reservation_id = r.id"
                        + " AND a.active) AS held_until FROM " + ReservationStages.FROM + """
				 WHERE r.tenant_id = ? AND r.cancelled_at IS NULL AND r.ends_at > ?
				   AND coalesce(r.lifecycle_status, '') NOT IN ('DENIED', 'EXPIRED')
				ORDER BY r.starts_at > ?, CASE WHEN r.starts_at <= ? THEN r.ends_at END, r.starts_at, r.id LIMIT ?""")
                .params(tenant.id(), now, now, now, limit)
                .query((rs, n) -> {
                    String stage = rs.getString("stage");
                    ReservationStatus status =
                            stage == null ? ReservationStatus.CONFIRMED : ReservationStatus.valueOf(stage);
                    Timestamp heldUntil = rs.getTimestamp("held_until");
                    Instant held = status == ReservationStatus.PREEMPTED && heldUntil != null && heldUntil.after(now)
                            ? heldUntil.toInstant()
                            : null;
                    return new Current(
                            rs.getObject("id", UUID.class),
                            rs.getString("project_slug"),
                            rs.getString("pool_name"),
                            rs.getString("gpu_type"),
                            rs.getInt("gpus"),
                            rs.getTimestamp("starts_at").toInstant(),
                            rs.getTimestamp("ends_at").toInstant(),
                            status,
                            rs.getString("status_reason"),
                            held,
                            warning(status, rs.getBoolean("degraded")));
                })
                .list();
    }

    /** The warning a reservation in this status carries, its cluster degraded or not; null when none. */
    public static @Nullable Warning warning(ReservationStatus status, boolean degraded) {
        return switch (status) {
            case PREEMPTED -> Warning.PREEMPTED;
            case FAILED -> Warning.FAILED;
            default -> degraded ? Warning.DEGRADED : null;
        };
    }
}
