package dev.allot.billing.budgets;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.quota.Quotas;
import dev.allot.quota.pricing.ProjectBudgetCaps;
import dev.allot.shared.AllotException;
import dev.allot.shared.ETags;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Projects' monthly budgets. Alerts work as the tenant's do (each threshold once a month, re-checked under the
 * budget's row lock after every posting, sent to the tenant budget's webhook); a hard budget is also a cap quota
 * applies when booking ({@link ProjectBudgetCaps}), against what the project has booked for the month.
 */
@Service
@Transactional
public class ProjectBudgets implements ProjectBudgetCaps {

    private final ProjectBudgetRepository repository;

    private final BudgetRepository tenantBudgets;

    private final Notifications notifications;

    private final Tenancy tenancy;

    private final Quotas quotas;

    private final AuditLog audit;

    private final Clock clock;

    ProjectBudgets(
            ProjectBudgetRepository repository,
            BudgetRepository tenantBudgets,
            Notifications notifications,
            Tenancy tenancy,
            Quotas quotas,
            AuditLog audit,
            Clock clock) {
        this.repository = repository;
        this.tenantBudgets = tenantBudgets;
        this.notifications = notifications;
        this.tenancy = tenancy;
        this.quotas = quotas;
        this.audit = audit;
        this.clock = clock;
    }

    @Transactional(readOnly = true)
    public ProjectBudget get(Caller caller, String tenantSlug, String project) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        requireProject(tenantSlug, project);
        return repository
                .find(tenant.id(), project, false)
                .map(stored -> view(tenant, stored, currentMonth()))
                .orElseThrow(() -> notFound(tenantSlug, project));
    }

    public ProjectBudget put(
            Caller caller, String tenantSlug, String project, ProjectBudgetRequest request, @Nullable String ifMatch) {
        Tenant tenant = tenancy.writable(caller, tenantSlug, TenantRole.TENANT_ADMIN);
        requireProject(tenantSlug, project);
        request.validate();
        YearMonth month = currentMonth();
        Optional<ProjectBudget> before =
                repository.find(tenant.id(), project, true).map(b -> view(tenant, b, month));
        long version = before.map(ProjectBudget::version).orElse(0L);
        requireMatch(ifMatch, version, tenantSlug, project);
        repository.upsert(tenant.id(), project, request, version + 1, clock.instant());
        ProjectBudget after =
                view(tenant, repository.find(tenant.id(), project, true).orElseThrow(), month);
        audit.record(new AuditRecord(
                tenantSlug,
                before.isPresent() ? "project-budget.updated" : "project-budget.created",
                "project-budget",
                tenantSlug + "/" + project,
                before.orElse(null),
                after));
        // A budget set below what is already spent alerts at once.
        afterPosting(
                tenant.id(),
                after.month(),
                clock.instant(),
                tenantBudgets
                        .find(tenant.id(), false)
                        .map(BudgetRepository.Stored::webhookUrl)
                        .orElse(null));
        return after;
    }

    public void delete(Caller caller, String tenantSlug, String project, @Nullable String ifMatch) {
        Tenant tenant = tenancy.writable(caller, tenantSlug, TenantRole.TENANT_ADMIN);
        requireProject(tenantSlug, project);
        ProjectBudget before = repository
                .find(tenant.id(), project, true)
                .map(b -> view(tenant, b, currentMonth()))
                .orElseThrow(() -> notFound(tenantSlug, project));
        requireMatch(ifMatch, before.version(), tenantSlug, project);
        repository.delete(tenant.id(), project);
        audit.record(new AuditRecord(
                tenantSlug, "project-budget.deleted", "project-budget", tenantSlug + "/" + project, before, null));
    }

    @Override
    @Transactional(readOnly = true)
    public Optional<Cap> hardCap(UUID tenantId, String project) {
        return repository
                .find(tenantId, project, false)
                .filter(ProjectBudgetRepository.Stored::hard)
                .map(stored -> new Cap(stored.amount(), stored.currency()));
    }

    /** Records a notification for each threshold a project's spend in {@code month} has reached. */
    @Transactional(propagation = Propagation.MANDATORY)
    void afterPosting(UUID tenantId, YearMonth month, Instant now, @Nullable String webhookUrl) {
        for (ProjectBudgetRepository.Stored budget : repository.lockAll(tenantId)) {
            BigDecimal spent = repository.spent(tenantId, budget.project(), month, budget.currency());
            Budget thresholds = new Budget(
                    "",
                    budget.amount(),
                    budget.currency(),
                    budget.thresholds(),
                    null,
                    false,
                    budget.version(),
                    month,
                    spent);
            for (int threshold : thresholds.reached(spent)) {
                notifications.raise(
                        tenantId,
                        Notifications.Kind.BUDGET_THRESHOLD,
                        "project-budget:" + budget.project() + ":" + month + ":" + threshold,
                        "Spending of project " + budget.project() + " in " + month + " reached " + threshold
                                + " % of its budget: " + spent + " of " + budget.amount() + " " + budget.currency(),
                        Map.of(
                                "project",
                                budget.project(),
                                "month",
                                month.toString(),
                                "threshold",
                                threshold,
                                "budget",
                                budget.amount(),
                                "spent",
                                spent,
                                "currency",
                                budget.currency()),
                        webhookUrl,
                        now);
            }
        }
    }

    private ProjectBudget view(Tenant tenant, ProjectBudgetRepository.Stored stored, YearMonth month) {
        return new ProjectBudget(
                tenant.slug(),
                stored.project(),
                stored.amount(),
                stored.currency(),
                stored.thresholds(),
                stored.hard(),
                stored.version(),
                month,
                repository.spent(tenant.id(), stored.project(), month, stored.currency()),
                quotas.bookedByProject(tenant.id(), stored.project(), month, stored.currency()));
    }

    private void requireProject(String tenantSlug, String project) {
        if (tenancy.project(tenantSlug, project).isEmpty()) {
            throw AllotException.notFound("Project " + project + " of tenant " + tenantSlug);
        }
    }

    private static void requireMatch(@Nullable String ifMatch, long version, String tenant, String project) {
        if (!ETags.matches(ifMatch, "\"" + version + "\"")) {
            throw AllotException.preconditionFailed("The budget of project " + project + " of " + tenant
                    + " has changed; its ETag is \"" + version + "\"");
        }
    }

    private static AllotException notFound(String tenant, String project) {
        return AllotException.notFound("The budget of project " + project + " of tenant " + tenant);
    }

    private YearMonth currentMonth() {
        return YearMonth.from(clock.instant().atOffset(ZoneOffset.UTC));
    }
}
