package dev.allot.quota;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.shared.AllotException;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Quota requests (issue 31): a tenant admin asks for more (the whole policy list wanted, and why); a platform admin
 * approves it, which applies it through {@link Quotas#replace} with every check of a direct change (a refusal such
 * as {@code 422 guarantees_exceed_capacity} leaves it pending), or denies it with a reason. At most one request of a
 * tenant waits ({@code 409 quota_request_pending}); a decided one is final ({@code 409 quota_request_decided}).
 * Every step is audited.
 */
@Service
@Transactional
public class QuotaRequests {

    private final JdbcClient jdbc;

    private final QuotaRepository repository;

    private final Quotas quotas;

    private final QuotaPolicyService policyService;

    private final Tenancy tenancy;

    private final AuditLog audit;

    private final ApplicationEventPublisher events;

    private final Clock clock;

    QuotaRequests(
            JdbcClient jdbc,
            QuotaRepository repository,
            Quotas quotas,
            QuotaPolicyService policyService,
            Tenancy tenancy,
            AuditLog audit,
            ApplicationEventPublisher events,
            Clock clock) {
        this.jdbc = jdbc;
        this.repository = repository;
        this.quotas = quotas;
        this.policyService = policyService;
        this.tenancy = tenancy;
        this.audit = audit;
        this.events = events;
        this.clock = clock;
    }

    public QuotaRequest create(Caller caller, String tenantSlug, List<QuotaPolicy> policies, String reason) {
        Tenant tenant = tenancy.writable(caller, tenantSlug, TenantRole.TENANT_ADMIN);
        String why = requireReason(reason);
        Map<String, UUID> ids = policyService.gpuTypeIds(policies);
        UUID id = UUID.randomUUID();
        Instant now = clock.instant();
        try {
            jdbc.sql("""
					INSERT INTO quota_request (id, tenant_id, tenant_slug, requested_by, reason, status, created_at)
					VALUES (?, ?, ?, ?, ?, 'PENDING', ?)""")
                    .params(id, tenant.id(), tenant.slug(), caller.subject(), why, Timestamp.from(now))
                    .update();
        } catch (DuplicateKeyException pending) {
            throw AllotException.conflict(
                    "quota_request_pending",
                    "Tenant " + tenantSlug + " already has a quota request waiting for a decision: withdraw it first");
        }
        repository.insertRequestPolicies(id, policies, ids);
        QuotaRequest created = find(id).orElseThrow();
        audit.record(AuditRecord.created(tenantSlug, "quota-request", id.toString(), created));
        return created;
    }

    @Transactional(readOnly = true)
    public QuotaRequest get(Caller caller, String tenantSlug, UUID id) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        return find(id).filter(r -> r.tenant().equals(tenant.slug())).orElseThrow(() -> notFound(id));
    }

    /** The tenant's requests, newest first (its members read them). */
    @Transactional(readOnly = true)
    public PageResponse<QuotaRequest> ofTenant(Caller caller, String tenantSlug, PageQuery page) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        return page(" WHERE tenant_id = ?", List.of(tenant.id()), page);
    }

    /** Every tenant's requests, newest first, or only those of a status (platform admins and auditors). */
    @Transactional(readOnly = true)
    public PageResponse<QuotaRequest> all(Caller caller, QuotaRequest.@Nullable Status status, PageQuery page) {
        caller.requireReadsEverything();
        return status == null ? page("", List.of(), page) : page(" WHERE status = ?", List.of(status.name()), page);
    }

    /** Applies it (platform admin), as a direct change would be; refused, it stays pending. */
    public QuotaRequest approve(Caller caller, UUID id, @Nullable String reason) {
        caller.requirePlatformAdmin();
        QuotaRequest before = pending(id);
        quotas.replace(caller, before.tenant(), before.policies(), null);
        return decide(caller, before, QuotaRequest.Status.APPROVED, reason, "quota-request.approved");
    }

    public QuotaRequest deny(Caller caller, UUID id, @Nullable String reason) {
        caller.requirePlatformAdmin();
        QuotaRequest before = pending(id);
        return decide(caller, before, QuotaRequest.Status.DENIED, requireReason(reason), "quota-request.denied");
    }

    /** The tenant's admin takes it back. */
    public QuotaRequest withdraw(Caller caller, String tenantSlug, UUID id) {
        Tenant tenant = tenancy.writable(caller, tenantSlug, TenantRole.TENANT_ADMIN);
        QuotaRequest before = pending(id);
        if (!before.tenant().equals(tenant.slug())) {
            throw notFound(id);
        }
        return decide(caller, before, QuotaRequest.Status.WITHDRAWN, null, "quota-request.withdrawn");
    }

    private QuotaRequest decide(
            Caller caller, QuotaRequest before, QuotaRequest.Status status, @Nullable String reason, String action) {
        jdbc.sql("""
				UPDATE quota_request SET status = ?, decided_by = ?, decided_at = ?, decision_reason = ?
				WHERE id = ?""")
                .params(status.name(), caller.subject(), Timestamp.from(clock.instant()), reason, before.id())
                .update();
        QuotaRequest after = find(before.id()).orElseThrow();
        audit.record(new AuditRecord(
                before.tenant(), action, "quota-request", before.id().toString(), before, after));
        if (status != QuotaRequest.Status.WITHDRAWN) {
            // the tenant's admins wait for the answer: billing tells them, once this commits
            events.publishEvent(new QuotaRequestDecided(
                    after.id(),
                    after.tenant(),
                    status,
                    reason,
                    caller.subject(),
                    after.decidedAt() == null ? clock.instant() : after.decidedAt()));
        }
        return after;
    }

    /** The request, locked; 404 when there is none, 409 when it was decided. */
    private QuotaRequest pending(UUID id) {
        QuotaRequest request = jdbc.sql("SELECT * FROM quota_request WHERE id = ? FOR UPDATE")
                .param(id)
                .query(this::request)
                .optional()
                .orElseThrow(() -> notFound(id));
        if (request.status() != QuotaRequest.Status.PENDING) {
            throw AllotException.conflict(
                    "quota_request_decided",
                    "The quota request of " + request.tenant() + " is " + request.status() + " already");
        }
        return request;
    }

    private Optional<QuotaRequest> find(UUID id) {
        return jdbc.sql("SELECT * FROM quota_request WHERE id = ?")
                .param(id)
                .query(this::request)
                .optional();
    }

    private PageResponse<QuotaRequest> page(String where, List<Object> params, PageQuery page) {
        long total = jdbc.sql("SELECT count(*) FROM quota_request" + where)
                .params(params)
                .query(Long.class)
                .single();
        List<Object> all = new ArrayList<>(params);
        all.add(page.size());
        all.add(page.offset());
        List<QuotaRequest> items = jdbc.sql(
                        "SELECT * FROM quota_request" + where + " ORDER BY created_at DESC, id LIMIT ? OFFSET ?")
                .params(all)
                .query(this::request)
                .list();
        return PageResponse.of(items, page, total);
    }

    private QuotaRequest request(ResultSet rs, int row) throws SQLException {
        UUID id = rs.getObject("id", UUID.class);
        Timestamp decided = rs.getTimestamp("decided_at");
        return new QuotaRequest(
                id,
                rs.getString("tenant_slug"),
                QuotaRequest.Status.valueOf(rs.getString("status")),
                repository.requestPolicies(id),
                rs.getString("reason"),
                rs.getString("requested_by"),
                rs.getTimestamp("created_at").toInstant(),
                rs.getString("decided_by"),
                decided == null ? null : decided.toInstant(),
                rs.getString("decision_reason"));
    }

    private static String requireReason(@Nullable String reason) {
        if (reason == null || reason.isBlank() || reason.strip().length() > 1000) {
            throw InvalidInputException.of("reason", "must be 1-1000 characters");
        }
        return reason.strip();
    }

    private static AllotException notFound(UUID id) {
        return AllotException.notFound("Quota request " + id);
    }
}
