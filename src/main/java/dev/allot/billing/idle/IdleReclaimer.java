package dev.allot.billing.idle;

import dev.allot.billing.budgets.Notifications;
import dev.allot.billing.config.BillingProperties;
import dev.allot.booking.Bookings;
import dev.allot.shared.AllotException;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Applies tenants' idleReclaim policies to the reservations idle detection flagged. One pass: a flag idle for the
 * policy's {@code afterHours} gets its notice (NOTIFY and RELEASE); a RELEASE whose notice has run out ends the
 * reservation early through booking's cancel path, so nodes, quota and billing stop once. Before each step the
 * samples are read again: GPUs used since the flag clear it instead, and nodes that stopped reporting make it wait. Each flag
 * is handled in its own transaction and locked with SKIP LOCKED, so replicas running passes at once never act
 * twice on one.
 */
@Service
public class IdleReclaimer {

    /** What one pass did, by reservation. */
    public record Pass(List<UUID> noticed, List<UUID> released, List<UUID> cleared) {}

    private record Flag(
            UUID reservationId,
            UUID tenantId,
            String tenant,
            Instant idleSince,
            String mode,
            int afterHours,
            @Nullable Integer noticeMinutes,
            @Nullable Instant releaseAt) {}

    private final JdbcClient jdbc;

    private final Notifications notifications;

    private final Bookings bookings;

    private final BillingProperties properties;

    private final TransactionTemplate transactions;

    IdleReclaimer(
            JdbcClient jdbc,
            Notifications notifications,
            Bookings bookings,
            BillingProperties properties,
            TransactionTemplate transactions) {
        this.jdbc = jdbc;
        this.notifications = notifications;
        this.bookings = bookings;
        this.properties = properties;
        this.transactions = transactions;
    }

    public Pass run(Instant now) {
        List<UUID> noticed = new ArrayList<>();
        List<UUID> released = new ArrayList<>();
        List<UUID> cleared = new ArrayList<>();
        for (UUID id : due(now)) {
            String outcome = transactions.execute(status -> step(id, now));
            switch (outcome == null ? "" : outcome) {
                case "noticed" -> noticed.add(id);
                case "released" -> released.add(id);
                case "cleared" -> cleared.add(id);
                default -> {}
            }
        }
        return new Pass(noticed, released, cleared);
    }

    /** Flags with something to do now: a notice due, or a release due. */
    private List<UUID> due(Instant now) {
        return jdbc.sql("""
				SELECT f.reservation_id FROM idle_flag f JOIN tenant_idle_reclaim p ON p.tenant_id = f.tenant_id
				WHERE f.released_at IS NULL AND f.cleared_at IS NULL AND p.mode <> 'OFF'
				  AND ((f.noticed_at IS NULL AND f.idle_since + make_interval(hours => p.after_hours) <= :now)
				       OR (f.release_at IS NOT NULL AND f.release_at <= :now))
				ORDER BY f.flagged_at LIMIT 500""").param("now", Timestamp.from(now)).query(UUID.class).list();
    }

    private String step(UUID id, Instant now) {
        Flag flag = jdbc.sql("""
				SELECT f.reservation_id, f.tenant_id, r.tenant_slug, f.idle_since, p.mode, p.after_hours,
				       p.notice_minutes, f.release_at
				FROM idle_flag f JOIN tenant_idle_reclaim p ON p.tenant_id = f.tenant_id
				JOIN billable_reservation r ON r.reservation_id = f.reservation_id
				WHERE f.reservation_id = ? AND f.released_at IS NULL AND f.cleared_at IS NULL
				FOR UPDATE OF f SKIP LOCKED""")
                .param(id)
                .query((rs, n) -> new Flag(
                        rs.getObject(1, UUID.class),
                        rs.getObject(2, UUID.class),
                        rs.getString(3),
                        rs.getTimestamp(4).toInstant(),
                        rs.getString(5),
                        rs.getInt(6),
                        (Integer) rs.getObject(7),
                        rs.getTimestamp(8) == null ? null : rs.getTimestamp(8).toInstant()))
                .optional()
                .orElse(null);
        if (flag == null || "OFF".equals(flag.mode())) {
            return "skipped"; // another replica has it, or the policy was switched off
        }
        Evidence evidence = evidence(flag, now);
        if (evidence == Evidence.USED) {
            clear(id, now);
            return "cleared";
        }
        if (evidence == Evidence.UNKNOWN) {
            return "waiting";
        }
        if (flag.releaseAt() == null) {
            return notice(flag, now);
        }
        if (!"RELEASE".equals(flag.mode())) {
            clear(id, now); // the policy was relaxed to NOTIFY after the notice: nothing is released
            return "cleared";
        }
        return release(flag, now);
    }

    private String notice(Flag flag, Instant now) {
        boolean release = "RELEASE".equals(flag.mode());
        Instant releaseAt = release
                ? now.plus(Duration.ofMinutes(Objects.requireNonNull(flag.noticeMinutes(), "a flag has its notice")))
                : null;
        jdbc.sql("UPDATE idle_flag SET noticed_at = ?, release_at = ? WHERE reservation_id = ?")
                .params(Timestamp.from(now), releaseAt == null ? null : Timestamp.from(releaseAt), flag.reservationId())
                .update();
        String message = "Reservation " + flag.reservationId() + " has been idle since " + flag.idleSince()
                + (release
                        ? "; under your idleReclaim policy it will be released at " + releaseAt
                                + " unless its GPUs are used before then"
                        : " (idleReclaim: NOTIFY; nothing will be released)");
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("reservationId", flag.reservationId().toString());
        details.put("idleSince", flag.idleSince().toString());
        details.put("policy", flag.mode());
        if (releaseAt != null) {
            details.put("releaseAt", releaseAt.toString());
        }
        notifications.raise(
                flag.tenantId(),
                Notifications.Kind.IDLE_RECLAIM_NOTICE,
                "idle-reclaim-notice:" + flag.reservationId(),
                message,
                details,
                webhook(flag.tenantId()),
                now);
        // NOTIFY is done once noticed; RELEASE stays open until its release is due.
        if (!release) {
            jdbc.sql("UPDATE idle_flag SET cleared_at = ? WHERE reservation_id = ?")
                    .params(Timestamp.from(now), flag.reservationId())
                    .update();
        }
        return "noticed";
    }

    private String release(Flag flag, Instant now) {
        try {
            bookings.releaseIdle(flag.tenantId(), flag.tenant(), flag.reservationId());
        } catch (AllotException ex) {
            if (ex.status() != 409 && ex.status() != 404) {
                throw ex;
            }
            clear(flag.reservationId(), now); // ended meanwhile (cancelled, completed, failed): nothing to release
            return "cleared";
        }
        jdbc.sql("UPDATE idle_flag SET released_at = ? WHERE reservation_id = ?")
                .params(Timestamp.from(now), flag.reservationId())
                .update();
        notifications.raise(
                flag.tenantId(),
                Notifications.Kind.IDLE_RELEASED,
                "idle-released:" + flag.reservationId(),
                "Reservation " + flag.reservationId() + " was released early: idle since " + flag.idleSince()
                        + ", under your idleReclaim policy (RELEASE after " + flag.afterHours() + " h idle)",
                Map.of(
                        "reservationId",
                        flag.reservationId().toString(),
                        "idleSince",
                        flag.idleSince().toString(),
                        "releasedAt",
                        now.toString()),
                webhook(flag.tenantId()),
                now);
        return "released";
    }

    private enum Evidence {
        IDLE,
        USED,
        UNKNOWN
    }

    /**
     * Idle still: no GPU reached the threshold since the reservation was flagged idle, and every node reported
     * within the last idle window (a node that stopped reporting is no evidence either way: the step waits).
     * A reservation that has ended counts as used: nothing is left to reclaim.
     */
    private Evidence evidence(Flag flag, Instant now) {
        record Seen(long nodes, long reporting, @Nullable BigDecimal max) {}
        Seen seen = jdbc.sql("""
				SELECT cardinality(r.nodes),
				       (SELECT count(DISTINCT s.hostname) FROM gpu_utilisation_sample s
				        WHERE s.hostname = ANY (r.nodes) AND s.at > :recent AND s.at <= :now),
				       (SELECT max(s.utilisation) FROM gpu_utilisation_sample s
				        WHERE s.hostname = ANY (r.nodes) AND s.at >= :since AND s.at <= :now)
				FROM billable_reservation r
				WHERE r.reservation_id = :id AND r.failed_at IS NULL AND r.stopped_at IS NULL AND r.ends_at > :now""")
                .param("recent", Timestamp.from(now.minus(properties.idleAfter())))
                .param("now", Timestamp.from(now))
                .param("since", Timestamp.from(flag.idleSince()))
                .param("id", flag.reservationId())
                .query((rs, n) -> new Seen(rs.getLong(1), rs.getLong(2), rs.getBigDecimal(3)))
                .optional()
                .orElse(null);
        if (seen == null || seen.max() != null && seen.max().compareTo(properties.idleThreshold()) >= 0) {
            return Evidence.USED;
        }
        return seen.reporting() == seen.nodes() ? Evidence.IDLE : Evidence.UNKNOWN;
    }

    private void clear(UUID id, Instant now) {
        jdbc.sql("UPDATE idle_flag SET cleared_at = ? WHERE reservation_id = ?")
                .params(Timestamp.from(now), id)
                .update();
    }

    private @Nullable String webhook(UUID tenantId) {
        return jdbc.sql("SELECT webhook_url FROM tenant_budget WHERE tenant_id = ?")
                .param(tenantId)
                .query(String.class)
                .optional()
                .orElse(null);
    }
}
