package dev.allot.booking;

import dev.allot.shared.security.Caller;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The whole fleet's bookings as a platform admin watches them: GPUs held now and GPU-hours held over the next day
 * (by live allocations, so a preempted reservation counts until its nodes go), reclaiming over the last week, and
 * the bookings waiting for approval, per tenant. For platform admins and auditors.
 */
@Service
@Transactional(readOnly = true)
public class FleetActivity {

    /** How far back reclaiming is counted. */
    public static final Duration RECLAIM_SPAN = Duration.ofDays(7);

    /** How far ahead the held GPU-hours are counted. */
    public static final Duration AHEAD = Duration.ofHours(24);

    /**
     * @param gpusHeldNow GPUs of nodes allocated now
     * @param gpuHoursAhead GPU-hours allocated in the next {@link #AHEAD}
     * @param preemptions reservations preempted in the last {@link #RECLAIM_SPAN}
     * @param preemptedTenants the tenants they belonged to
     * @param approvals the bookings waiting for approval, per tenant
     */
    public record Activity(
            int gpusHeldNow,
            BigDecimal gpuHoursAhead,
            int preemptions,
            int preemptedTenants,
            List<Waiting> approvals) {}

    /** A tenant's bookings waiting for approval. */
    public record Waiting(String tenant, int bookings) {}

    private record Held(int gpusNow, BigDecimal gpuHoursAhead) {}

    private record Reclaimed(int reservations, int tenants) {}

    private final JdbcClient jdbc;

    private final Clock clock;

    FleetActivity(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    public Activity now(Caller caller) {
        caller.requireReadsEverything();
        Instant now = clock.instant();
        Timestamp at = Timestamp.from(now);
        Timestamp ahead = Timestamp.from(now.plus(AHEAD));
        Held held = jdbc.sql("""
				SELECT coalesce(sum(p.gpus_per_node) FILTER (WHERE a.during @> ?::timestamptz), 0),
				       coalesce(sum(p.gpus_per_node * extract(epoch FROM upper(a.during * w.span) - lower(a.during * w.span))),
				                0) / 3600
				FROM allocation a JOIN node n ON n.id = a.node_id JOIN pool p ON p.id = n.pool_id,
				     (SELECT tstzrange(?, ?) AS span) w
				WHERE a.active AND a.during && w.span""")
                .params(at, at, ahead)
                .query((rs, n) -> new Held(rs.getInt(1), rs.getBigDecimal(2)))
                .single();
        Reclaimed reclaimed = jdbc.sql("""
				SELECT count(*), count(DISTINCT tenant_id) FROM reservation
				WHERE lifecycle_status = 'PREEMPTED' AND status_changed_at > ?""")
                .param(Timestamp.from(now.minus(RECLAIM_SPAN)))
                .query((rs, n) -> new Reclaimed(rs.getInt(1), rs.getInt(2)))
                .single();
        List<Waiting> waiting = jdbc.sql("""
				SELECT tenant_slug, count(*) FROM reservation
				WHERE lifecycle_status = 'PENDING_APPROVAL' AND cancelled_at IS NULL
				GROUP BY tenant_slug ORDER BY count(*) DESC, tenant_slug LIMIT 20""")
                .query((rs, n) -> new Waiting(rs.getString(1), rs.getInt(2)))
                .list();
        return new Activity(
                held.gpusNow(),
                held.gpuHoursAhead().setScale(1, RoundingMode.HALF_EVEN),
                reclaimed.reservations(),
                reclaimed.tenants(),
                waiting);
    }
}
