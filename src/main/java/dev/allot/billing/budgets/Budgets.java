package dev.allot.billing.budgets;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.shared.AllotException;
import dev.allot.shared.ETags;
import dev.allot.shared.outbound.OutboundUrls;
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
import org.springframework.modulith.NamedInterface;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Tenants' monthly budgets. Every posting re-checks the tenant's budget under its row lock, so concurrent
 * postings cannot both miss a crossing; each threshold alerts once per month (a unique key).
 */
@Service
@Transactional
@NamedInterface("budgets") // the demo sets a budget as its tenant admin would
public class Budgets {

    private final BudgetRepository repository;

    private final Notifications notifications;

    private final Tenancy tenancy;

    private final AuditLog audit;

    private final ProjectBudgets projects;

    private final WebhookSecrets secrets;

    private final OutboundUrls outbound;

    private final Clock clock;

    Budgets(
            BudgetRepository repository,
            Notifications notifications,
            ProjectBudgets projects,
            WebhookSecrets secrets,
            Tenancy tenancy,
            AuditLog audit,
            OutboundUrls outbound,
            Clock clock) {
        this.repository = repository;
        this.notifications = notifications;
        this.projects = projects;
        this.secrets = secrets;
        this.tenancy = tenancy;
        this.audit = audit;
        this.outbound = outbound;
        this.clock = clock;
    }

    @Transactional(readOnly = true)
    public Budget get(Caller caller, String tenantSlug) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        BudgetRepository.Stored stored = repository
                .find(tenant.id(), false)
                .orElseThrow(() -> AllotException.notFound("The budget of tenant " + tenantSlug));
        return view(tenant, stored, currentMonth());
    }

    /** The tenant's budget with this month's spend, if it has set one. */
    @Transactional(readOnly = true)
    public Optional<Budget> find(Caller caller, String tenantSlug) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        return repository.find(tenant.id(), false).map(stored -> view(tenant, stored, currentMonth()));
    }

    public Budget put(Caller caller, String tenantSlug, BudgetRequest request, @Nullable String ifMatch) {
        Tenant tenant = tenancy.writable(caller, tenantSlug, TenantRole.TENANT_ADMIN);
        request.validate(outbound);
        var before = repository.find(tenant.id(), true);
        long version = before.map(BudgetRepository.Stored::version).orElse(0L);
        if (!ETags.matches(ifMatch, "\"" + version + "\"")) {
            throw AllotException.preconditionFailed(
                    "The budget of " + tenantSlug + " has changed; its ETag is \"" + version + "\"");
        }
        String sealed = request.webhookSecret() == null ? null : secrets.seal(tenant.id(), request.webhookSecret());
        repository.upsert(tenant.id(), request, sealed, version + 1, clock.instant());
        YearMonth month = currentMonth();
        Budget after = view(tenant, repository.find(tenant.id(), true).orElseThrow(), month);
        audit.record(new AuditRecord(
                tenantSlug,
                before.isPresent() ? "budget.updated" : "budget.created",
                "budget",
                tenantSlug,
                before.map(b -> redacted(tenantSlug, b)).orElse(null),
                redacted(tenantSlug, after)));
        // A budget set below what is already spent alerts at once.
        afterPosting(tenant.id(), month, clock.instant());
        return after;
    }

    /** Records a notification for each threshold the tenant's (and its projects') spend in {@code month} reached. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void afterPosting(UUID tenantId, YearMonth month, Instant now) {
        var tenantBudget = repository.find(tenantId, true);
        tenantBudget.ifPresent(budget -> {
            BigDecimal spent = repository.spent(tenantId, month, budget.currency());
            Budget view = new Budget(
                    "",
                    budget.amount(),
                    budget.currency(),
                    budget.thresholds(),
                    budget.webhookUrl(),
                    budget.webhookSecret() != null,
                    budget.version(),
                    month,
                    spent);
            for (int threshold : view.reached(spent)) {
                notifications.raise(
                        tenantId,
                        Notifications.Kind.BUDGET_THRESHOLD,
                        "budget:" + month + ":" + threshold,
                        "Spending in " + month + " reached " + threshold + " % of the budget: " + spent + " of "
                                + budget.amount() + " " + budget.currency(),
                        Map.of(
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
                        budget.webhookUrl(),
                        now);
            }
        });
        projects.afterPosting(
                tenantId,
                month,
                now,
                tenantBudget.map(BudgetRepository.Stored::webhookUrl).orElse(null));
    }

    private Budget view(Tenant tenant, BudgetRepository.Stored stored, YearMonth month) {
        return new Budget(
                tenant.slug(),
                stored.amount(),
                stored.currency(),
                stored.thresholds(),
                stored.webhookUrl(),
                stored.webhookSecret() != null,
                stored.version(),
                month,
                repository.spent(tenant.id(), month, stored.currency()));
    }

    private static Map<String, Object> redacted(String tenant, Object budget) {
        if (budget instanceof BudgetRepository.Stored s) {
            return Map.of(
                    "tenant",
                    tenant,
                    "amount",
                    s.amount(),
                    "currency",
                    s.currency(),
                    "thresholds",
                    s.thresholds(),
                    "webhookUrl",
                    String.valueOf(s.webhookUrl()));
        }
        Budget b = (Budget) budget;
        return Map.of(
                "tenant",
                tenant,
                "amount",
                b.amount(),
                "currency",
                b.currency(),
                "thresholds",
                b.thresholds(),
                "webhookUrl",
                String.valueOf(b.webhookUrl()));
    }

    private YearMonth currentMonth() {
        return YearMonth.from(clock.instant().atOffset(ZoneOffset.UTC));
    }
}
