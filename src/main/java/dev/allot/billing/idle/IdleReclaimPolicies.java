package dev.allot.billing.idle;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.Locale;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Tenants' idleReclaim policies: read by the tenant's members, set by platform admins, audited. */
@Service
@Transactional
public class IdleReclaimPolicies {

    private final JdbcClient jdbc;

    private final Tenancy tenancy;

    private final AuditLog audit;

    private final Clock clock;

    IdleReclaimPolicies(JdbcClient jdbc, Tenancy tenancy, AuditLog audit, Clock clock) {
        this.jdbc = jdbc;
        this.tenancy = tenancy;
        this.audit = audit;
        this.clock = clock;
    }

    @Transactional(readOnly = true)
    public IdleReclaimPolicy get(Caller caller, String tenantSlug) {
        return of(tenancy.readable(caller, tenantSlug).id());
    }

    /** Replaces the policy; {@code mode} is one of OFF, NOTIFY, RELEASE (any case). */
    public IdleReclaimPolicy put(
            Caller caller,
            String tenantSlug,
            @Nullable String mode,
            @Nullable Integer afterHours,
            @Nullable Integer noticeMinutes) {
        caller.requirePlatformAdmin();
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        IdleReclaimPolicy after = new IdleReclaimPolicy(mode(mode), afterHours, noticeMinutes);
        IdleReclaimPolicy before = of(tenant.id());
        jdbc.sql("""
				INSERT INTO tenant_idle_reclaim (tenant_id, mode, after_hours, notice_minutes, updated_at)
				VALUES (?, ?, ?, ?, ?) ON CONFLICT (tenant_id) DO UPDATE SET mode = excluded.mode,
				    after_hours = excluded.after_hours, notice_minutes = excluded.notice_minutes,
				    updated_at = excluded.updated_at""")
                .params(
                        tenant.id(),
                        after.mode().name(),
                        after.afterHours(),
                        after.noticeMinutes(),
                        Timestamp.from(clock.instant()))
                .update();
        if (!after.equals(before)) {
            audit.record(new AuditRecord(tenantSlug, "idle-reclaim.updated", "tenant", tenantSlug, before, after));
        }
        return after;
    }

    IdleReclaimPolicy of(UUID tenantId) {
        return jdbc.sql("SELECT mode, after_hours, notice_minutes FROM tenant_idle_reclaim WHERE tenant_id = ?")
                .param(tenantId)
                .query((rs, n) -> new IdleReclaimPolicy(
                        IdleReclaimPolicy.Mode.valueOf(rs.getString(1)), (Integer) rs.getObject(2), (Integer)
                                rs.getObject(3)))
                .optional()
                .orElse(IdleReclaimPolicy.OFF);
    }

    private static IdleReclaimPolicy.Mode mode(@Nullable String mode) {
        if (mode == null) {
            throw InvalidInputException.of("mode", "is required: OFF, NOTIFY or RELEASE");
        }
        try {
            return IdleReclaimPolicy.Mode.valueOf(mode.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException ex) {
            throw InvalidInputException.of("mode", "must be OFF, NOTIFY or RELEASE");
        }
    }
}
