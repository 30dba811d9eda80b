package dev.allot.billing.webhooks;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.Task;
import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.billing.budgets.WebhookSecrets;
import dev.allot.booking.events.ReservationConfirmed;
import dev.allot.shared.AllotException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.outbound.OutboundUrls;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tenants' lifecycle webhooks and their deliveries. A delivery is written, and its db-scheduler task scheduled,
 * in the transaction of the listener that heard the event (through a transaction-aware client, as
 * provisioning's steps are), so an event is delivered if and only if its delivery committed, and a replica whose
 * poller is off still schedules deliveries for the others.
 */
@Service
@Transactional
public class LifecycleWebhooks {

    /** Webhooks a tenant may register: each event is sent to each of them. */
    static final int MAX_PER_TENANT = 10;

    record Attempt(
            UUID id, UUID tenantId, String url, String secret, LifecycleEvent event, String body, int attempts) {}

    private final JdbcClient jdbc;

    private final JsonMapper json;

    private final Tenancy tenancy;

    private final WebhookSecrets secrets;

    private final OutboundUrls outbound;

    private final AuditLog audit;

    private final DataSource dataSource;

    private final ObjectProvider<Task<?>> tasks;

    private final Clock clock;

    private volatile @Nullable SchedulerClient scheduler;

    LifecycleWebhooks(
            JdbcClient jdbc,
            JsonMapper json,
            Tenancy tenancy,
            WebhookSecrets secrets,
            OutboundUrls outbound,
            AuditLog audit,
            DataSource dataSource,
            ObjectProvider<Task<?>> tasks,
            Clock clock) {
        this.jdbc = jdbc;
        this.json = json;
        this.tenancy = tenancy;
        this.secrets = secrets;
        this.outbound = outbound;
        this.audit = audit;
        this.dataSource = dataSource;
        this.tasks = tasks;
        this.clock = clock;
    }

    public LifecycleWebhook create(Caller caller, String tenantSlug, LifecycleWebhookRequest request) {
        Tenant tenant = tenancy.writable(caller, tenantSlug, TenantRole.TENANT_ADMIN);
        Set<LifecycleEvent> events = request.validate(outbound);
        // Under the tenant's row lock, so that two concurrent registrations cannot both pass the limit.
        jdbc.sql("SELECT id FROM tenant WHERE id = ? FOR NO KEY UPDATE")
                .param(tenant.id())
                .query(UUID.class)
                .single();
        long existing = jdbc.sql("SELECT count(*) FROM tenant_webhook WHERE tenant_id = ?")
                .param(tenant.id())
                .query(Long.class)
                .single();
        if (existing >= MAX_PER_TENANT) {
            throw AllotException.unprocessable(
                    "too_many_webhooks",
                    "Tenant " + tenantSlug + " already has " + existing
                            + " webhooks, the most a tenant may have; delete one first.");
        }
        UUID id = UUID.randomUUID();
        String url = request.url();
        String sealed =
                secrets.seal(tenant.id(), Objects.requireNonNull(request.secret(), "a valid request has its secret"));
        jdbc.sql("""
				INSERT INTO tenant_webhook (id, tenant_id, url, secret, events, created_at)
				VALUES (?, ?, ?, ?, ?::text[], ?)""")
                .params(
                        id,
                        tenant.id(),
                        url,
                        sealed,
                        "{" + String.join(",", events.stream().map(Enum::name).toList()) + "}",
                        Timestamp.from(clock.instant()))
                .update();
        LifecycleWebhook created = find(tenant, id).orElseThrow();
        audit.record(AuditRecord.created(tenantSlug, "webhook", id.toString(), redacted(created)));
        return created;
    }

    @Transactional(readOnly = true)
    public PageResponse<LifecycleWebhook> list(Caller caller, String tenantSlug, PageQuery page) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        long total = jdbc.sql("SELECT count(*) FROM tenant_webhook WHERE tenant_id = ?")
                .param(tenant.id())
                .query(Long.class)
                .single();
        List<LifecycleWebhook> items = jdbc.sql(SELECT_WEBHOOK + """
				WHERE w.tenant_id = ? ORDER BY w.created_at, w.id LIMIT ? OFFSET ?""")
                .params(tenant.id(), page.size(), page.offset())
                .query((rs, n) -> webhook(rs))
                .list();
        return PageResponse.of(items, page, total);
    }

    @Transactional(readOnly = true)
    public LifecycleWebhook get(Caller caller, String tenantSlug, UUID id) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        return find(tenant, id).orElseThrow(() -> notFound(tenantSlug, id));
    }

    /** Removes the webhook and its deliveries; a delivery under way finishes, none is tried again. */
    public void delete(Caller caller, String tenantSlug, UUID id) {
        Tenant tenant = tenancy.writable(caller, tenantSlug, TenantRole.TENANT_ADMIN);
        LifecycleWebhook before = find(tenant, id).orElseThrow(() -> notFound(tenantSlug, id));
        jdbc.sql("DELETE FROM tenant_webhook WHERE id = ? AND tenant_id = ?")
                .params(id, tenant.id())
                .update();
        audit.record(new AuditRecord(tenantSlug, "webhook.deleted", "webhook", id.toString(), redacted(before), null));
    }

    /** The webhook's deliveries, newest first. */
    @Transactional(readOnly = true)
    public PageResponse<LifecycleDelivery> deliveries(Caller caller, String tenantSlug, UUID id, PageQuery page) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        find(tenant, id).orElseThrow(() -> notFound(tenantSlug, id));
        long total = jdbc.sql("SELECT count(*) FROM tenant_webhook_delivery WHERE webhook_id = ?")
                .param(id)
                .query(Long.class)
                .single();
        List<LifecycleDelivery> items = jdbc.sql("""
				SELECT * FROM tenant_webhook_delivery WHERE webhook_id = ?
				ORDER BY created_at DESC, id LIMIT ? OFFSET ?""")
                .params(id, page.size(), page.offset())
                .query((rs, n) -> new LifecycleDelivery(
                        rs.getObject("id", UUID.class),
                        LifecycleEvent.valueOf(rs.getString("event")),
                        rs.getObject("reservation_id", UUID.class),
                        WebhookDeliveryStatus.valueOf(rs.getString("status")),
                        rs.getInt("attempts"),
                        rs.getString("last_error"),
                        rs.getTimestamp("created_at").toInstant(),
                        instant(rs.getTimestamp("attempted_at"))))
                .list();
        return PageResponse.of(items, page, total);
    }

    /** Tells the tenant's webhooks of a confirmed booking; the cluster is still to be built. */
    public void confirmed(ReservationConfirmed confirmed) {
        enqueue(
                confirmed.tenant(),
                LifecycleEvent.CONFIRMED,
                confirmed.reservationId(),
                clock.instant(),
                Map.of(
                        "project",
                        confirmed.project(),
                        "pool",
                        confirmed.pool(),
                        "gpus",
                        confirmed.gpus(),
                        "startsAt",
                        confirmed.startsAt().toString(),
                        "endsAt",
                        confirmed.endsAt().toString(),
                        "cluster",
                        Map.of("state", "PENDING")));
    }

    /**
     * Enqueues the event for each of the tenant's webhooks that asked for it: one delivery per webhook, event and
     * reservation (an event heard twice is sent once), in the caller's transaction.
     * @param details what the body carries besides {@code id}, {@code event}, {@code occurredAt}, {@code tenant}
     * and {@code reservationId}
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void enqueue(
            String tenantSlug,
            LifecycleEvent event,
            UUID reservationId,
            Instant occurredAt,
            Map<String, Object> details) {
        Optional<Tenant> tenant = tenancy.find(tenantSlug);
        if (tenant.isEmpty()) {
            return;
        }
        List<UUID> webhooks = jdbc.sql("SELECT id FROM tenant_webhook WHERE tenant_id = ? AND ? = ANY (events)")
                .params(tenant.get().id(), event.name())
                .query(UUID.class)
                .list();
        for (UUID webhook : webhooks) {
            UUID id = UUID.randomUUID();
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("id", id.toString());
            body.put("event", event.name());
            body.put("occurredAt", occurredAt.toString());
            body.put("tenant", tenantSlug);
            body.put("reservationId", reservationId.toString());
            body.putAll(details);
            int inserted = jdbc.sql("""
					INSERT INTO tenant_webhook_delivery
					       (id, webhook_id, event, reservation_id, body, status, created_at)
					VALUES (?, ?, ?, ?, ?, 'PENDING', ?) ON CONFLICT (webhook_id, event, reservation_id) DO NOTHING""")
                    .params(
                            id,
                            webhook,
                            event.name(),
                            reservationId,
                            json.writeValueAsString(body),
                            Timestamp.from(clock.instant()))
                    .update();
            if (inserted == 1) {
                // db-scheduler runs on the system clock, not the application's (which tests move).
                scheduler()
                        .schedule(LifecycleWebhookDelivery.TASK
                                .instance(id.toString())
                                .data(id.toString())
                                .scheduledTo(Instant.now()));
            }
        }
    }

    /** The delivery to attempt, counted as an attempt; empty when it is done or its webhook is gone. */
    @Transactional(propagation = Propagation.REQUIRES_NEW)
    Optional<Attempt> startAttempt(UUID id) {
        return jdbc.sql("""
				UPDATE tenant_webhook_delivery d SET attempts = d.attempts + 1, attempted_at = ?
				FROM tenant_webhook w WHERE w.id = d.webhook_id AND d.id = ? AND d.status = 'PENDING'
				RETURNING d.id, w.tenant_id, w.url, w.secret, d.event, d.body, d.attempts""")
                .params(Timestamp.from(clock.instant()), id)
                .query((rs, n) -> new Attempt(
                        rs.getObject("id", UUID.class),
                        rs.getObject("tenant_id", UUID.class),
                        rs.getString("url"),
                        rs.getString("secret"),
                        LifecycleEvent.valueOf(rs.getString("event")),
                        rs.getString("body"),
                        rs.getInt("attempts")))
                .optional()
                .map(a -> new Attempt(
                        a.id(),
                        a.tenantId(),
                        a.url(),
                        secrets.open(a.tenantId(), a.secret()),
                        a.event(),
                        a.body(),
                        a.attempts()));
    }

    @Transactional(propagation = Propagation.REQUIRES_NEW)
    void finishAttempt(UUID id, @Nullable String error, boolean giveUp) {
        jdbc.sql("""
				UPDATE tenant_webhook_delivery SET status = ?, last_error = ? WHERE id = ? AND status = 'PENDING'""")
                .params(error == null ? "DELIVERED" : giveUp ? "FAILED" : "PENDING", error, id)
                .update();
    }

    private static final String SELECT_WEBHOOK = """
			SELECT w.id, w.url, w.events, w.created_at, last.at AS last_at, last.event AS last_event,
			       last.status AS last_status, last.last_error AS last_error
			FROM tenant_webhook w
			LEFT JOIN LATERAL (SELECT coalesce(d.attempted_at, d.created_at) AS at, d.event, d.status, d.last_error
			                   FROM tenant_webhook_delivery d WHERE d.webhook_id = w.id
			                   ORDER BY d.created_at DESC, d.id LIMIT 1) last ON true
			""";

    private Optional<LifecycleWebhook> find(Tenant tenant, UUID id) {
        return jdbc.sql(SELECT_WEBHOOK + "WHERE w.tenant_id = ? AND w.id = ?")
                .params(tenant.id(), id)
                .query((rs, n) -> webhook(rs))
                .optional();
    }

    private static LifecycleWebhook webhook(ResultSet rs) throws SQLException {
        Array events = rs.getArray("events");
        List<LifecycleEvent> subscribed = Arrays.stream((String[]) events.getArray())
                .map(LifecycleEvent::valueOf)
                .sorted()
                .toList();
        Timestamp lastAt = rs.getTimestamp("last_at");
        LastDelivery last = lastAt == null
                ? null
                : new LastDelivery(
                        lastAt.toInstant(),
                        LifecycleEvent.valueOf(rs.getString("last_event")),
                        WebhookDeliveryStatus.valueOf(rs.getString("last_status")),
                        rs.getString("last_error"));
        return new LifecycleWebhook(
                rs.getObject("id", UUID.class),
                rs.getString("url"),
                subscribed,
                rs.getTimestamp("created_at").toInstant(),
                last);
    }

    private static @Nullable Instant instant(@Nullable Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }

    private static Map<String, Object> redacted(LifecycleWebhook webhook) {
        return Map.of("url", webhook.url(), "events", webhook.events());
    }

    private static AllotException notFound(String tenantSlug, UUID id) {
        return AllotException.notFound("Webhook " + id + " of tenant " + tenantSlug);
    }

    private SchedulerClient scheduler() {
        SchedulerClient current = scheduler;
        if (current == null) {
            synchronized (this) {
                if (scheduler == null) {
                    scheduler = SchedulerClient.Builder.create(
                                    new TransactionAwareDataSourceProxy(dataSource),
                                    tasks.orderedStream().toList())
                            .build();
                }
                current = scheduler;
            }
        }
        return current;
    }
}
