package dev.allot.quota;

import dev.allot.inventory.GpuType;
import dev.allot.inventory.Inventory;
import dev.allot.quota.pricing.RateClass;
import dev.allot.shared.AllotException;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.TimeWindow;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/** A tenant's standing on a GPU type, read from the maintained usage. Runs in the caller's transaction. */
@Service
class StandingReader {

    private final QuotaRepository repository;

    private final ProjectQuotaRepository projectRepository;

    private final QuotaUsageRepository usageRepository;

    private final Tenancy tenancy;

    private final Inventory inventory;

    private final Clock clock;

    StandingReader(
            QuotaRepository repository,
            ProjectQuotaRepository projectRepository,
            QuotaUsageRepository usageRepository,
            Tenancy tenancy,
            Inventory inventory,
            Clock clock) {
        this.repository = repository;
        this.projectRepository = projectRepository;
        this.usageRepository = usageRepository;
        this.tenancy = tenancy;
        this.inventory = inventory;
        this.clock = clock;
    }

    /**
     * What is left of a tenant's quota over a window (members read their own): per step, read from the maintained
     * usage, never the history.
     */
    Quotas.Standing standing(
            Caller caller, String tenantSlug, String gpuTypeCode, Instant from, Instant to, Duration step) {
        Tenant tenant = tenancy.readableInProjects(caller, tenantSlug);
        GpuType type = inventory
                .gpuType(gpuTypeCode)
                .orElseThrow(() -> InvalidInputException.of("gpuType", "no such GPU type"));
        if (!to.isAfter(from)) {
            throw InvalidInputException.of("to", "must be after from");
        }
        if (step.compareTo(Duration.ofMinutes(1)) < 0) {
            throw InvalidInputException.of("step", "must be at least PT1M");
        }
        if (Duration.between(from, to).dividedBy(step) > 500) {
            throw InvalidInputException.of("step", "makes more than 500 steps: take a longer step or a shorter window");
        }
        QuotaPolicy policy = repository.policy(tenant.id(), type.id()).orElse(null);
        List<Instant> bounds = new ArrayList<>();
        for (Instant start = from; start.isBefore(to); start = start.plus(step)) {
            bounds.add(start);
        }
        bounds.add(to);
        List<Quotas.StandingStep> steps = steps(tenant, type, policy, bounds);
        YearMonth month = YearMonth.from(clock.instant().atZone(ZoneOffset.UTC));
        List<Quotas.ProjectStanding> projects = projectRepository.projectCaps(tenant.id(), type.id()).stream()
                .filter(cap -> caller.canSeeProject(tenantSlug, cap.project())) // a project member sees its own
                .map(cap -> new Quotas.ProjectStanding(
                        cap.project(),
                        cap.policy().maxGpus(),
                        cap.policy().monthlyBudget(),
                        ProjectQuotaService.peak(
                                usageRepository.heldByProject(tenant.id(), cap.project(), type.id(), from, to)),
                        usageRepository.spentByProject(tenant.id(), cap.project(), type.id(), month)))
                .toList();
        return new Quotas.Standing(
                tenantSlug, type.code(), step, steps, policy == null ? null : policy.approval(), projects, List.of());
    }

    /**
     * The standing between consecutive {@code bounds}, from one read of the usage: for steps of unequal length, such
     * as a viewer's days, which one fixed step cannot follow where the clocks change.
     */
    List<Quotas.StandingStep> standingSteps(
            Caller caller, String tenantSlug, String gpuTypeCode, List<Instant> bounds) {
        Tenant tenant = tenancy.readableInProjects(caller, tenantSlug);
        GpuType type = gpuType(gpuTypeCode);
        return steps(tenant, type, repository.policy(tenant.id(), type.id()).orElse(null), bounds);
    }

    /** For each span between consecutive bounds, the most the tenant holds in it. */
    private List<Quotas.StandingStep> steps(
            Tenant tenant, GpuType type, @Nullable QuotaPolicy policy, List<Instant> bounds) {
        UsageSteps usage =
                usageRepository.usage(tenant.id(), type.id(), new TimeWindow(bounds.getFirst(), bounds.getLast()));
        List<Quotas.StandingStep> steps = new ArrayList<>();
        for (int i = 0; i + 1 < bounds.size(); i++) {
            Instant start = bounds.get(i);
            int held = usage.levelAt(start);
            for (int level : usage.breaks()
                    .subMap(start, false, bounds.get(i + 1), false)
                    .values()) {
                held = Math.max(held, level);
            }
            steps.add(step(policy, start, held));
        }
        return steps;
    }

    private GpuType gpuType(String code) {
        return inventory.gpuType(code).orElseThrow(() -> AllotException.notFound("GPU type " + code));
    }

    /** A step of the standing: what the tenant holds then split into tiers, under its policy (if any). */
    private static Quotas.StandingStep step(@Nullable QuotaPolicy policy, Instant start, int held) {
        int guaranteed = policy == null ? 0 : policy.guaranteedGpus();
        int max = policy == null ? 0 : policy.maxGpusAt(start);
        int reserved = Math.min(held, guaranteed);
        int borrowed = Math.min(Math.max(0, held - guaranteed), Math.max(0, max - guaranteed));
        RateClass next = policy == null
                ? null
                : held < guaranteed
                        ? RateClass.RESERVED
                        : held < max ? RateClass.BORROWED : policy.burst() ? RateClass.ON_DEMAND : null;
        int heldBack = policy == null ? 0 : Math.max(0, policy.heldBackGpus() - reserved);
        return new Quotas.StandingStep(
                start,
                guaranteed,
                max,
                reserved,
                borrowed,
                held - reserved - borrowed,
                heldBack,
                next == null ? "NONE" : next.name());
    }
}
