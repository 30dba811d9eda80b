package dev.allot.billing.budgets;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import dev.allot.shared.CursorPage;
import dev.allot.shared.ListQuery;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

/**
 * Notifications to tenants, each raised once (a unique key), and their webhook deliveries: a db-scheduler task
 * scheduled in the same transaction (the scheduler's DataSource is transaction-aware), so a notification is
 * delivered if and only if it committed, and retried with backoff on failure.
 */
@Service
@Transactional
public class Notifications {

    public enum Kind {
        BUDGET_THRESHOLD,
        IDLE_RESERVATION,
        RESERVATION_PREEMPTED,
        IDLE_RECLAIM_NOTICE,
        IDLE_RELEASED,
        NODE_NOT_REPLACED,
        RESERVATION_FAILED,
        APPROVAL_REQUESTED,
        APPROVAL_DECIDED,
        QUOTA_REQUEST_DECIDED
    }

    record Delivery(UUID id, UUID tenantId, String url, String body, int attempts) {}

    private final JdbcClient jdbc;

    private final JsonMapper json;

    private final Tenancy tenancy;

    private final ObjectProvider<SchedulerClient> scheduler;

    private final WebhookSecrets secrets;

    Notifications(
            JdbcClient jdbc,
            JsonMapper json,
            Tenancy tenancy,
            ObjectProvider<SchedulerClient> scheduler,
            WebhookSecrets secrets) {
        this.jdbc = jdbc;
        this.json = json;
        this.tenancy = tenancy;
        this.scheduler = scheduler;
        this.secrets = secrets;
    }

    /** The tenant's notification webhook (set with its budget), if any. */
    @Transactional(propagation = Propagation.SUPPORTS)
    public @Nullable String webhookOf(UUID tenantId) {
        return jdbc.sql("SELECT webhook_url FROM tenant_budget WHERE tenant_id = ?")
                .param(tenantId)
                .query(String.class)
                .optional()
                .orElse(null);
    }

    /**
     * Tells the tenant named by its slug, as {@link #raise} does, POSTed to its notification webhook when one is set:
     * for listeners of other modules' events, which name tenants by slug.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public boolean tell(
            String tenantSlug, Kind kind, String key, String message, Map<String, Object> details, Instant now) {
        UUID tenantId = tenancy.find(tenantSlug).orElseThrow().id();
        return raise(tenantId, kind, key, message, details, webhookOf(tenantId), now);
    }

    /** Records the notification unless one with the key exists; schedules its webhook delivery if any. */
    @Transactional(propagation = Propagation.MANDATORY)
    public boolean raise(
            UUID tenantId,
            Kind kind,
            String key,
            String message,
            Map<String, Object> details,
            @Nullable String webhookUrl,
            Instant now) {
        UUID id = UUID.randomUUID();
        int inserted = jdbc.sql("""
				INSERT INTO notification (id, tenant_id, kind, dedup_key, message, details, created_at, webhook_url, delivery)
				VALUES (?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?) ON CONFLICT (tenant_id, dedup_key) DO NOTHING""")
                .params(
                        id,
                        tenantId,
                        kind.name(),
                        key,
                        message,
                        json.writeValueAsString(details),
                        Timestamp.from(now),
                        webhookUrl,
                        webhookUrl == null ? "NONE" : "PENDING")
                .update();
        if (inserted == 1 && webhookUrl != null) {
            // db-scheduler runs on the system clock, not the application's (which tests move).
            scheduler
                    .getObject()
                    .schedule(WebhookDelivery.TASK
                            .instance(id.toString())
                            .data(id.toString())
                            .scheduledTo(Instant.now()));
        }
        return inserted == 1;
    }

    @Transactional(readOnly = true)
    public CursorPage<Notification> list(Caller caller, String tenantSlug, ListQuery page) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        long total = jdbc.sql("SELECT count(*) FROM notification WHERE tenant_id = ?")
                .param(tenant.id())
                .query(Long.class)
                .single();
        // newest first; after a cursor, what sorts after its key (an ISO instant and a UUID)
        boolean after = page.after() != null;
        var items = jdbc.sql("SELECT * FROM notification WHERE tenant_id = ?"
                        + (after ? " AND (created_at, id) < (?, ?)" : "")
                        + " ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?")
                .params(
                        after
                                ? List.of(
                                        tenant.id(),
                                        Timestamp.from(page.key(0, Instant::parse)),
                                        page.key(1, UUID::fromString),
                                        page.rowsToRead(),
                                        page.offset())
                                : List.of(tenant.id(), page.rowsToRead(), page.offset()))
                .query((rs, n) -> read(rs))
                .list();
        return page.answer(items, total, n -> List.of(n.createdAt().toString(), n.id().toString()));
    }

    /** The notices about one of the tenant's reservations (preempted, a node not replaced, ...), newest first. */
    @Transactional(readOnly = true)
    public List<Notification> about(Caller caller, String tenantSlug, UUID reservationId) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        return jdbc.sql("""
				SELECT * FROM notification WHERE tenant_id = ? AND details ->> 'reservationId' = ?
				ORDER BY created_at DESC, id LIMIT 20""")
                .params(tenant.id(), reservationId.toString())
                .query((rs, n) -> read(rs))
                .list();
    }

    /** The latest notices about any of the tenant's reservations raised since {@code since}, newest first. */
    @Transactional(readOnly = true)
    public List<Notification> aboutReservations(Caller caller, String tenantSlug, Instant since) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        return jdbc.sql("""
				SELECT * FROM notification WHERE tenant_id = ? AND created_at > ?
				  AND details ->> 'reservationId' IS NOT NULL
				ORDER BY created_at DESC, id LIMIT 5""")
                .params(tenant.id(), Timestamp.from(since))
                .query((rs, n) -> read(rs))
                .list();
    }

    /** The tenant's notices the user has not seen yet, newest first: at most {@code limit}, and how many in all. */
    public record Unread(long count, List<Notification> latest) {}

    /** The notices raised after the newest the user saw on the notification list (all of them before that). */
    @Transactional(readOnly = true)
    public Unread unread(Caller caller, String tenantSlug, int limit) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        long[] count = {0};
        List<Notification> latest = jdbc.sql("""
				SELECT n.*, count(*) OVER () AS unread FROM notification n
				WHERE n.tenant_id = ? AND n.created_at > coalesce((SELECT s.seen_until FROM notification_seen s
				                                                   WHERE s.tenant_id = ? AND s.subject = ?), '-infinity')
				ORDER BY n.created_at DESC, n.id DESC LIMIT ?""")
                .params(tenant.id(), tenant.id(), caller.subject(), limit)
                .query((rs, n) -> {
                    count[0] = rs.getLong("unread");
                    return read(rs);
                })
                .list();
        return new Unread(latest.isEmpty() ? 0 : count[0], latest);
    }

    /** When the user last saw the tenant's notices: those raised after it are unread; null when never. */
    @Transactional(readOnly = true)
    public @Nullable Instant seenUntil(Caller caller, String tenantSlug) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        return jdbc.sql("SELECT seen_until FROM notification_seen WHERE tenant_id = ? AND subject = ?")
                .params(tenant.id(), caller.subject())
                .query(Timestamp.class)
                .optional()
                .map(Timestamp::toInstant)
                .orElse(null);
    }

    /** The user has seen the tenant's notices up to {@code newest}; never moves back. */
    public void seen(Caller caller, String tenantSlug, Instant newest) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        jdbc.sql("""
				INSERT INTO notification_seen (tenant_id, subject, seen_until) VALUES (?, ?, ?)
				ON CONFLICT (tenant_id, subject) DO UPDATE SET seen_until = greatest(notification_seen.seen_until,
				                                                                     excluded.seen_until)""")
                .params(tenant.id(), caller.subject(), Timestamp.from(newest))
                .update();
    }

    private Notification read(ResultSet rs) throws SQLException {
        Timestamp delivered = rs.getTimestamp("delivered_at");
        return new Notification(
                rs.getObject("id", UUID.class),
                rs.getString("kind"),
                rs.getString("message"),
                json.readTree(rs.getString("details")),
                rs.getTimestamp("created_at").toInstant(),
                rs.getString("delivery"),
                rs.getInt("attempts"),
                rs.getString("last_error"),
                delivered == null ? null : delivered.toInstant());
    }

    /** The delivery to attempt, counted as an attempt; empty when it is already done. */
    @Transactional(propagation = Propagation.REQUIRES_NEW)
    Optional<Delivery> startAttempt(UUID id) {
        return jdbc.sql("""
				UPDATE notification SET attempts = attempts + 1 WHERE id = ? AND delivery = 'PENDING'
				RETURNING id, tenant_id, webhook_url, kind, message, details::text AS details, created_at, attempts""")
                .param(id)
                .query((rs, n) -> new Delivery(
                        rs.getObject("id", UUID.class),
                        rs.getObject("tenant_id", UUID.class),
                        rs.getString("webhook_url"),
                        json.writeValueAsString(Map.of(
                                "id",
                                rs.getString("id"),
                                "kind",
                                rs.getString("kind"),
                                "message",
                                rs.getString("message"),
                                "details",
                                json.readTree(rs.getString("details")),
                                "createdAt",
                                rs.getTimestamp("created_at").toInstant().toString())),
                        rs.getInt("attempts")))
                .optional();
    }

    @Transactional(propagation = Propagation.REQUIRES_NEW)
    void finishAttempt(UUID id, @Nullable String error, boolean giveUp, Instant now) {
        jdbc.sql("""
				UPDATE notification SET delivery = ?, last_error = ?, delivered_at = ? WHERE id = ? AND delivery = 'PENDING'""")
                .params(
                        error == null ? "DELIVERED" : giveUp ? "FAILED" : "PENDING",
                        error,
                        error == null ? Timestamp.from(now) : null,
                        id)
                .update();
    }

    /** The signing secret of the tenant's webhook, opened (read at each attempt, so a rotated secret applies). */
    @Transactional(readOnly = true)
    public Optional<String> secretOf(UUID tenantId) {
        return jdbc.sql("SELECT webhook_secret FROM tenant_budget WHERE tenant_id = ? AND webhook_secret IS NOT NULL")
                .param(tenantId)
                .query(String.class)
                .optional()
                .map(stored -> secrets.open(tenantId, stored));
    }
}
