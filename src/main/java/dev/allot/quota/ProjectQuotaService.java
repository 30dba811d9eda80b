package dev.allot.quota;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.inventory.GpuType;
import dev.allot.inventory.Inventory;
import dev.allot.quota.policies.ProjectQuotaPolicy;
import dev.allot.quota.pricing.ProjectBudgetCaps;
import dev.allot.shared.AllotException;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.TimeWindow;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.math.BigDecimal;
import java.time.YearMonth;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

/**
 * Projects' own caps within their tenant's policies: reading and replacing them, and refusing a booking that would
 * take its project past them or past its hard budget. Runs in the caller's transaction.
 */
@Service
class ProjectQuotaService {

    private final QuotaRepository repository;

    private final ProjectQuotaRepository projects;

    private final QuotaUsageRepository usageRepository;

    private final Tenancy tenancy;

    private final Inventory inventory;

    private final AuditLog audit;

    private final ObjectProvider<ProjectBudgetCaps> projectCaps;

    ProjectQuotaService(
            QuotaRepository repository,
            ProjectQuotaRepository projects,
            QuotaUsageRepository usageRepository,
            Tenancy tenancy,
            Inventory inventory,
            AuditLog audit,
            ObjectProvider<ProjectBudgetCaps> projectCaps) {
        this.repository = repository;
        this.projects = projects;
        this.usageRepository = usageRepository;
        this.tenancy = tenancy;
        this.inventory = inventory;
        this.audit = audit;
        this.projectCaps = projectCaps;
    }

    /** A project's caps, per GPU type (tenant members read them). */
    List<ProjectQuotaPolicy> projectQuota(Caller caller, String tenantSlug, String project) {
        Tenant tenant = tenancy.readableInProjects(caller, tenantSlug);
        if (!caller.canSeeProject(tenantSlug, project)) {
            throw AllotException.notFound("Project " + project + " of tenant " + tenantSlug);
        }
        requireProject(tenantSlug, project);
        return projects.projectPolicies(tenant.id(), project);
    }

    /**
     * Replaces a project's caps (a tenant admin or a platform admin), each within the tenant's own policy of the
     * type: 422 {@code project_quota_exceeds_tenant} naming the field otherwise. Audited.
     */
    List<ProjectQuotaPolicy> replaceProjectQuota(
            Caller caller, String tenantSlug, String project, List<ProjectQuotaPolicy> policies) {
        Tenant tenant = tenancy.writable(caller, tenantSlug, TenantRole.TENANT_ADMIN);
        requireProject(tenantSlug, project);
        repository.lockOrCreate(tenant.id());
        Map<UUID, ProjectQuotaPolicy> byType = new LinkedHashMap<>();
        for (int i = 0; i < policies.size(); i++) {
            ProjectQuotaPolicy policy = policies.get(i);
            String field = "policies[" + i + "]";
            GpuType type = inventory
                    .gpuType(policy.gpuType())
                    .orElseThrow(() -> InvalidInputException.of(field + ".gpuType", "no such GPU type"));
            if (byType.containsKey(type.id())) {
                throw InvalidInputException.of(field + ".gpuType", "appears more than once");
            }
            QuotaPolicy tenants = repository
                    .policy(tenant.id(), type.id())
                    .orElseThrow(() ->
                            InvalidInputException.of(field + ".gpuType", "the tenant has no quota for " + type.code()));
            if (policy.maxGpus() != null && policy.maxGpus() > tenants.maxGpus()) {
                throw beyondTenant(
                        field + ".maxGpus", "may not be more than the tenant's maxGpus of " + tenants.maxGpus());
            }
            if (policy.monthlyBudget() != null
                    && tenants.monthlyBudget() != null
                    && policy.monthlyBudget().compareTo(tenants.monthlyBudget()) > 0) {
                throw beyondTenant(
                        field + ".monthlyBudget",
                        "may not be more than the tenant's monthlyBudget of " + tenants.monthlyBudget());
            }
            byType.put(type.id(), policy);
        }
        List<ProjectQuotaPolicy> before = projects.projectPolicies(tenant.id(), project);
        projects.replaceProjectPolicies(tenant.id(), project, byType);
        List<ProjectQuotaPolicy> after = projects.projectPolicies(tenant.id(), project);
        audit.record(new AuditRecord(
                tenantSlug,
                "project-quota.updated",
                "project",
                tenantSlug + "/" + project,
                Map.of("policies", before),
                Map.of("policies", after)));
        return after;
    }

    private void requireProject(String tenantSlug, String project) {
        if (tenancy.project(tenantSlug, project).isEmpty()) {
            throw AllotException.notFound("Project " + project);
        }
    }

    private static AllotException beyondTenant(String field, String message) {
        return new AllotException(
                        422,
                        "project_quota_exceeds_tenant",
                        "Project quota beyond the tenant's",
                        field + ": " + message)
                .with("errors", List.of(new InvalidInputException.FieldError(field, message)));
    }

    /** Refuses a booking that would take a project past its hard monthly budget (in the budget's currency). */
    void requireProjectBudget(UUID tenantId, String project, String currency, Map<YearMonth, BigDecimal> byMonth) {
        ProjectBudgetCaps caps = projectCaps.getIfAvailable();
        if (caps == null) {
            return;
        }
        caps.hardCap(tenantId, project)
                .filter(cap -> cap.currency().equals(currency))
                .ifPresent(cap -> {
                    for (Map.Entry<YearMonth, BigDecimal> month : byMonth.entrySet()) {
                        BigDecimal spent = usageRepository.spentByProject(tenantId, project, month.getKey(), currency);
                        BigDecimal left = cap.amount().subtract(spent).subtract(month.getValue());
                        if (left.signum() < 0) {
                            throw (QuotaExceededException) new QuotaExceededException(
                                            "projectBudget",
                                            "The booking costs " + month.getValue() + " " + currency + " in "
                                                    + month.getKey() + ", "
                                                    + left.negate() + " more than project " + project + "'s budget of "
                                                    + cap.amount()
                                                    + " " + currency + " allows after " + spent + " booked")
                                    .with("project", project)
                                    .with("month", month.getKey().toString())
                                    .with("allowed", cap.amount())
                                    .with("spent", spent)
                                    .with("requested", month.getValue())
                                    .with("exceededBy", left.negate());
                        }
                    }
                });
    }

    /**
     * Refuses with {@code 422 project_quota_exceeded} a booking that would take its project past the project's cap
     * on the GPU type: more GPUs held at once than {@code maxGpus} at some moment of the window, or its bookings of
     * the type in a month past {@code monthlyBudget}. Runs under the tenant's quota lock, as every booking does.
     */
    void requireProjectQuota(
            UUID tenantId,
            String project,
            GpuType type,
            TimeWindow window,
            int gpus,
            Map<YearMonth, BigDecimal> byMonth) {
        Optional<ProjectQuotaPolicy> cap = projects.projectPolicies(tenantId, project).stream()
                .filter(policy -> policy.gpuType().equals(type.code()))
                .findFirst();
        if (cap.isEmpty()) {
            return;
        }
        Integer maxGpus = cap.get().maxGpus();
        if (maxGpus != null) {
            int held = peak(usageRepository.heldByProject(tenantId, project, type.id(), window.start(), window.end()));
            if (held + gpus > maxGpus) {
                throw (QuotaExceededException) new QuotaExceededException(
                                "project_quota_exceeded",
                                "projectMaxGpus",
                                "Project " + project + " may hold " + maxGpus + " GPUs of " + type.code()
                                        + " at once; it holds " + held
                                        + " during the window, and this booking would add " + gpus)
                        .with("project", project)
                        .with("gpuType", type.code())
                        .with("allowed", maxGpus)
                        .with("held", held)
                        .with("requested", gpus)
                        .with("exceededBy", held + gpus - maxGpus);
            }
        }
        BigDecimal budget = cap.get().monthlyBudget();
        if (budget != null) {
            for (Map.Entry<YearMonth, BigDecimal> month : byMonth.entrySet()) {
                BigDecimal spent = usageRepository.spentByProject(tenantId, project, type.id(), month.getKey());
                BigDecimal left = budget.subtract(spent).subtract(month.getValue());
                if (left.signum() < 0) {
                    throw (QuotaExceededException) new QuotaExceededException(
                                    "project_quota_exceeded",
                                    "projectMonthlyBudget",
                                    "The booking costs " + month.getValue() + " in " + month.getKey()
                                            + ", " + left.negate() + " more than project " + project
                                            + "'s monthly budget of "
                                            + budget + " for " + type.code() + " leaves after " + spent + " booked")
                            .with("project", project)
                            .with("gpuType", type.code())
                            .with("month", month.getKey().toString())
                            .with("allowed", budget)
                            .with("spent", spent)
                            .with("requested", month.getValue())
                            .with("exceededBy", left.negate());
                }
            }
        }
    }

    /** The most GPUs the holdings add up to at one moment (an instant where one starts). */
    static int peak(List<QuotaUsageRepository.Held> holdings) {
        int peak = 0;
        for (QuotaUsageRepository.Held at : holdings) {
            int sum = holdings.stream()
                    .filter(h -> !h.from().isAfter(at.from()) && h.to().isAfter(at.from()))
                    .mapToInt(QuotaUsageRepository.Held::gpus)
                    .sum();
            peak = Math.max(peak, sum);
        }
        return peak;
    }
}
