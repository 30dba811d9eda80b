package dev.allot.booking.approval;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationStatus;
import dev.allot.booking.events.ReservationAwaitsApproval;
import dev.allot.booking.events.ReservationConfirmed;
import dev.allot.booking.events.ReservationDecided;
import dev.allot.booking.store.ReservationRepository;
import dev.allot.quota.Quotas;
import dev.allot.shared.AllotException;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.ProjectRole;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Booking approvals (issue 31): a booking its tenant's policy asks approval for is stored {@code PENDING_APPROVAL}.
 * It holds its nodes and quota, but nothing downstream knows of it: {@link ReservationConfirmed} (which provisioning
 * and billing act on) is published only when it is approved. A tenant admin or a project admin of its project other
 * than its requester, or a platform admin, approves it ({@code CONFIRMED}, at the price quoted) or denies it ({@code DENIED}); undecided when its hold
 * ({@code allot.approvals.hold}) runs out, or at its start if sooner, it is {@code EXPIRED}. Denied or expired, its
 * nodes and quota are freed from its start on, so nothing is charged. Every decision is audited.
 */
@Configuration(proxyBeanMethods = false)
public class Approvals {

    private final ReservationRepository reservations;

    private final Quotas quotas;

    private final Tenancy tenancy;

    private final AuditLog audit;

    private final ApplicationEventPublisher events;

    private final JdbcClient jdbc;

    private final TransactionTemplate transactions;

    private final Clock clock;

    private final Duration hold;

    private final HoldRelease holds;

    Approvals(
            ReservationRepository reservations,
            Quotas quotas,
            Tenancy tenancy,
            AuditLog audit,
            ApplicationEventPublisher events,
            JdbcClient jdbc,
            TransactionTemplate transactions,
            Clock clock,
            ApprovalProperties properties,
            HoldRelease holds) {
        this.reservations = reservations;
        this.quotas = quotas;
        this.tenancy = tenancy;
        this.audit = audit;
        this.events = events;
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.clock = clock;
        this.hold = properties.hold();
        this.holds = holds;
    }

    /** In the booking's transaction: the new reservation waits for a decision, holding its nodes until then. */
    public void pending(Reservation reservation, String requestedBy) {
        Instant now = clock.instant();
        Instant until = now.plus(hold).isBefore(reservation.startsAt()) ? now.plus(hold) : reservation.startsAt();
        jdbc.sql("""
				UPDATE reservation SET lifecycle_status = 'PENDING_APPROVAL', status_changed_at = ?, requested_by = ?,
				    approval_until = ? WHERE id = ?""")
                .params(Timestamp.from(now), requestedBy, Timestamp.from(until), reservation.id())
                .update();
        events.publishEvent(new ReservationAwaitsApproval(
                reservation.id(),
                reservation.tenant(),
                reservation.project(),
                reservation.pool(),
                reservation.gpus(),
                reservation.startsAt(),
                reservation.endsAt(),
                requestedBy,
                until));
    }

    /** Approves: the reservation is {@code CONFIRMED}, and provisioned and billed from now on as any booking. */
    public Reservation approve(Caller caller, String tenantSlug, UUID id, @Nullable String reason) {
        return transactions.execute(status -> {
            Decision decision = decision(caller, tenantSlug, id);
            Reservation before = decision.stored().reservation();
            Reservation after = before.approved(clock.instant());
            reservations.updateProgress(after);
            decided(id, caller, reason);
            audit.record(new AuditRecord(
                    tenantSlug,
                    "reservation.approved",
                    "reservation",
                    id.toString(),
                    before,
                    Map.of("reservation", after, "reason", Objects.requireNonNullElse(reason, ""))));
            events.publishEvent(new ReservationDecided(
                    id, after.tenant(), ReservationDecided.Outcome.APPROVED, reason, clock.instant()));
            events.publishEvent(new ReservationConfirmed(
                    id,
                    after.tenant(),
                    after.project(),
                    after.pool(),
                    after.gpus(),
                    after.startsAt(),
                    after.endsAt(),
                    after.nodes(),
                    after.labels()));
            return after;
        });
    }

    /** Denies: {@code DENIED}, its nodes and quota freed, nothing charged. */
    public Reservation deny(Caller caller, String tenantSlug, UUID id, String reason) {
        return transactions.execute(status -> {
            Decision decision = decision(caller, tenantSlug, id);
            Reservation after =
                    holds.release(decision.tenant().id(), decision.stored(), ReservationStatus.DENIED, reason);
            decided(id, caller, reason);
            audit.record(new AuditRecord(
                    tenantSlug,
                    "reservation.denied",
                    "reservation",
                    id.toString(),
                    decision.stored().reservation(),
                    after));
            events.publishEvent(new ReservationDecided(
                    id, after.tenant(), ReservationDecided.Outcome.DENIED, reason, clock.instant()));
            return after;
        });
    }

    /** Expires every pending reservation whose hold ran out; answers how many. */
    public int expireDue() {
        Instant now = clock.instant();
        List<Due> due = jdbc.sql("""
				SELECT id, tenant_id, tenant_slug FROM reservation
				WHERE lifecycle_status = 'PENDING_APPROVAL' AND approval_until <= ? ORDER BY approval_until LIMIT 500""")
                .param(Timestamp.from(now))
                .query((rs, n) -> new Due(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getString(3)))
                .list();
        int expired = 0;
        for (Due one : due) {
            Boolean done = transactions.execute(status -> {
                quotas.lock(one.tenantId());
                ReservationRepository.Stored stored =
                        reservations.findForUpdate(one.tenantId(), one.id()).orElse(null);
                if (stored == null || stored.reservation().status(now) != ReservationStatus.PENDING_APPROVAL) {
                    return false; // decided meanwhile
                }
                Reservation after = holds.release(
                        one.tenantId(), stored, ReservationStatus.EXPIRED, "No decision within the approval hold");
                audit.record(new AuditRecord(
                        one.tenant(),
                        "reservation.expired",
                        "reservation",
                        one.id().toString(),
                        stored.reservation(),
                        after));
                events.publishEvent(new ReservationDecided(
                        one.id(),
                        one.tenant(),
                        ReservationDecided.Outcome.EXPIRED,
                        "No decision within the approval hold",
                        now));
                return true;
            });
            expired += Boolean.TRUE.equals(done) ? 1 : 0;
        }
        return expired;
    }

    private record Due(UUID id, UUID tenantId, String tenant) {}

    private record Decision(Tenant tenant, ReservationRepository.Stored stored) {}

    /**
     * The pending reservation a caller may decide, locked: a tenant admin of its tenant or a project admin of its
     * project, other than whoever booked it, or a platform admin (403 otherwise; 404 to a stranger of the tenant, and
     * to a project admin for a reservation of a project they do not see; 409 when it is not pending).
     */
    private Decision decision(Caller caller, String tenantSlug, UUID id) {
        Tenant tenant = tenancy.readableInProjects(caller, tenantSlug);
        boolean projectAdmin = caller.projectRolesIn(tenantSlug).containsValue(ProjectRole.PROJECT_ADMIN);
        if (!projectAdmin && !caller.canRead(tenantSlug)) {
            throw AllotException.forbidden("Deciding a booking needs the role PROJECT_ADMIN in its project");
        }
        if (!projectAdmin) {
            caller.requireRole(tenantSlug, TenantRole.TENANT_ADMIN); // 403 to a member or an auditor, as before
        }
        tenant.requireActive();
        quotas.lock(tenant.id());
        ReservationRepository.Stored stored = reservations
                .findForUpdate(tenant.id(), id)
                .filter(found ->
                        caller.canSeeProject(tenantSlug, found.reservation().project()))
                .orElseThrow(() -> AllotException.notFound("Reservation " + id));
        if (!caller.managesProject(tenantSlug, stored.reservation().project())) {
            throw AllotException.forbidden("Deciding a booking of project "
                    + stored.reservation().project() + " needs the role TENANT_ADMIN in tenant " + tenantSlug
                    + " or PROJECT_ADMIN in the project");
        }
        String requestedBy = reservations.requestedBy(id);
        if (!caller.isPlatformAdmin() && caller.subject().equals(requestedBy)) {
            throw AllotException.forbidden("A booking is approved by an admin other than who booked it");
        }
        stored.reservation().approved(clock.instant()); // refuses one that is not pending, before anything changes
        return new Decision(tenant, stored);
    }

    private void decided(UUID id, Caller caller, @Nullable String reason) {
        jdbc.sql("UPDATE reservation SET decided_by = ?, decided_at = ?, decision_reason = ? WHERE id = ?")
                .params(caller.subject(), Timestamp.from(clock.instant()), reason, id)
                .update();
    }

    @Bean
    RecurringTask<Void> expirePendingApprovals() {
        return Tasks.recurring("booking-expire-pending-approvals", FixedDelay.of(Duration.ofMinutes(1)))
                .execute((instance, context) -> expireDue());
    }
}
