package dev.allot.quota;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.inventory.GpuType;
import dev.allot.inventory.Inventory;
import dev.allot.quota.policies.ProjectQuotaPolicy;
import dev.allot.quota.pricing.BookedSegment;
import dev.allot.quota.pricing.ProjectBudgetCaps;
import dev.allot.quota.pricing.RateCard;
import dev.allot.quota.pricing.RateClass;
import dev.allot.shared.AllotException;
import dev.allot.shared.ETags;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.PageResponse;
import dev.allot.shared.QueuedBookings;
import dev.allot.shared.SearchQuery;
import dev.allot.shared.SearchQuery.Columns;
import dev.allot.shared.TimeWindow;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Quota policies, rate cards, and the decision booking asks for. {@link #reserve}, {@link #extend} and
 * {@link #release} run inside booking's transaction and take the tenant's quota row lock first.
 */
@Service
@Transactional
public class Quotas {

    /** A tenant's policies, its storage quota in GiB (none: unlimited) and their ETag. */
    /** A row of the admin console's quotas: a tenant and its policy of one GPU type, or none (it cannot book). */
    public record QuotaListing(
            UUID tenantId,
            String tenant,
            String tenantName,
            @Nullable QuotaPolicy policy) {}

    /**
     * What the admin console's quotas may be sorted by: the columns stored with the policy (what a tenant holds and
     * spends is counted per row shown, so it cannot order the list).
     */
    public static final Columns QUOTA_COLUMNS = Columns.of(
            "t.slug, g.code",
            "tenant",
            "lower(t.display_name)",
            "gpuType",
            "g.code",
            "guaranteed",
            "p.guaranteed_gpus",
            "maximum",
            "p.max_gpus",
            "burst",
            "p.burst");

    public record TenantQuota(
            String tenant,
            List<QuotaPolicy> policies,
            @Nullable Integer storageGi,
            long version) {
        public String etag() {
            return "\"" + version + "\"";
        }
    }

    private final QuotaRepository repository;

    private final Tenancy tenancy;

    private final Inventory inventory;

    private final AuditLog audit;

    private final ObjectProvider<ProjectBudgetCaps> projectCaps;

    private final Clock clock;

    Quotas(
            QuotaRepository repository,
            Tenancy tenancy,
            Inventory inventory,
            AuditLog audit,
            ObjectProvider<ProjectBudgetCaps> projectCaps,
            Clock clock) {
        this.repository = repository;
        this.tenancy = tenancy;
        this.inventory = inventory;
        this.audit = audit;
        this.projectCaps = projectCaps;
        this.clock = clock;
    }

    // Policies

    /** The admin console's quotas: a row per tenant and GPU type (one for a tenant with none), searched and sorted. */
    @Transactional(readOnly = true)
    public PageResponse<QuotaListing> searchQuotas(Caller caller, SearchQuery query) {
        caller.requireReadsEverything();
        return PageResponse.of(repository.searchQuotas(query), query.page(), repository.countQuotas(query));
    }

    @Transactional(readOnly = true)
    public TenantQuota quota(Caller caller, String tenantSlug) {
        Tenant tenant = tenancy.readableInProjects(caller, tenantSlug);
        return new TenantQuota(
                tenantSlug,
                repository.policies(tenant.id()),
                repository.storageGi(tenant.id()).orElse(null),
                repository.version(tenant.id()));
    }

    /** Replaces the policies and keeps the storage quota. */
    public TenantQuota replace(Caller caller, String tenantSlug, List<QuotaPolicy> policies, @Nullable String ifMatch) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        return replace(
                caller, tenantSlug, policies, repository.storageGi(tenant.id()).orElse(null), ifMatch);
    }

    /** Replaces the policies and the storage quota ({@code null}: unlimited). */
    public TenantQuota replace(
            Caller caller,
            String tenantSlug,
            List<QuotaPolicy> policies,
            @Nullable Integer storageGi,
            @Nullable String ifMatch) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        if (storageGi != null && storageGi < 0) {
            throw InvalidInputException.of("storageGi", "must be 0 or more");
        }
        caller.requirePlatformAdmin();
        Map<String, UUID> ids = gpuTypeIds(policies);
        long version = repository.lockOrCreate(tenant.id());
        TenantQuota before = new TenantQuota(
                tenantSlug,
                repository.policies(tenant.id()),
                repository.storageGi(tenant.id()).orElse(null),
                version);
        if (!ETags.matches(ifMatch, before.etag())) {
            throw AllotException.preconditionFailed(
                    "The quota of " + tenantSlug + " has changed; its ETag is " + before.etag());
        }
        requireGuaranteesWithinCapacity(tenant.slug(), tenant.id(), before.policies(), policies);
        repository.replacePolicies(tenant.id(), policies, ids, version + 1);
        repository.setStorageGi(tenant.id(), storageGi);
        TenantQuota after = new TenantQuota(tenantSlug, List.copyOf(policies), storageGi, version + 1);
        audit.record(new AuditRecord(tenantSlug, "quota.updated", "quota", tenantSlug, before, after));
        return after;
    }

    /**
     * Guarantees are capacity: per GPU type, the tenants' guarantees may not add up to more than its healthy
     * capacity can cover, a dedicated pool counting only for its own tenants ({@link GuaranteeCover}). Checked for
     * each type whose guarantee grows, under a lock per GPU type (taken in code order, so two changes cannot
     * deadlock), so that two concurrent changes cannot both pass. Lowering a guarantee is always allowed, even while
     * capacity has dropped below the sum.
     */
    private void requireGuaranteesWithinCapacity(
            String tenantSlug, UUID tenantId, List<QuotaPolicy> before, List<QuotaPolicy> after) {
        Map<String, Integer> old = new HashMap<>();
        before.forEach(policy -> old.put(policy.gpuType(), policy.guaranteedGpus()));
        List<QuotaPolicy> growing = after.stream()
                .filter(policy -> policy.guaranteedGpus() > old.getOrDefault(policy.gpuType(), 0))
                .sorted(Comparator.comparing(QuotaPolicy::gpuType))
                .toList();
        for (QuotaPolicy policy : growing) {
            GpuType type = gpuType(policy.gpuType());
            repository.lockGuarantees(type.id());
            List<Inventory.PoolCapacity> pools = inventory.healthyGpusByPool(type);
            Map<String, Integer> guarantees = repository.guaranteesByTenant(type.id(), tenantId);
            guarantees.put(tenantSlug, policy.guaranteedGpus());
            int sum = guarantees.values().stream().mapToInt(Integer::intValue).sum();
            int capacity = GuaranteeCover.coverable(guarantees, pools);
            if (sum > capacity) {
                boolean dedicated =
                        pools.stream().anyMatch(pool -> !pool.dedicatedTo().isEmpty());
                throw AllotException.unprocessable(
                                "guarantees_exceed_capacity",
                                "The guarantees of " + type.code() + " would add up to " + sum + " GPUs, "
                                        + (sum - capacity) + " more than its healthy capacity of " + capacity + " GPUs"
                                        + (dedicated
                                                ? " can cover (a dedicated pool counts only for its own tenants)"
                                                : ""))
                        .with("gpuType", type.code())
                        .with("capacity", capacity)
                        .with("guaranteed", sum)
                        .with("excess", sum - capacity);
            }
        }
    }

    /** Each policy's GPU type by code; 400 naming the first that is unknown or named twice. */
    Map<String, UUID> gpuTypeIds(List<QuotaPolicy> policies) {
        Map<String, UUID> ids = new HashMap<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < policies.size(); i++) {
            String code = policies.get(i).gpuType();
            if (!seen.add(code)) {
                throw InvalidInputException.of("policies[" + i + "].gpuType", "appears more than once");
            }
            int index = i;
            ids.put(
                    code,
                    inventory
                            .gpuType(code)
                            .orElseThrow(() ->
                                    InvalidInputException.of("policies[" + index + "].gpuType", "no such GPU type"))
                            .id());
        }
        return ids;
    }

    /** A GPU type whose tenants are guaranteed more GPUs than it has healthy (after a quarantine, say). */
    public record Overcommitted(String gpuType, int capacity, int guaranteed) {
        public int excess() {
            return guaranteed - capacity;
        }
    }

    /** The GPU types whose guarantees add up to more than their healthy capacity now: for the admin console. */
    @Transactional(readOnly = true)
    public List<Overcommitted> overcommitted() {
        List<Overcommitted> found = new ArrayList<>();
        repository.guaranteesByType().forEach((code, guaranteed) -> {
            int capacity = inventory.healthyGpus(gpuType(code));
            if (guaranteed > capacity) {
                found.add(new Overcommitted(code, capacity, guaranteed));
            }
        });
        return found;
    }

    /**
     * One step of a tenant's standing on a GPU type: its guarantee and ceiling, the most it holds in the step split
     * into tiers, the part of its unused guarantee held back from borrowers ({@code lendableHeld}: what of the
     * guarantee beyond {@code lendableGpus} it does not use then), and the tier a new booking would get then
     * ({@code NONE}: none). {@code maxGpus} is the ceiling then: a time window's where one holds the step's start.
     */
    public record StandingStep(
            Instant start,
            int guaranteedGpus,
            int maxGpus,
            int reservedInUse,
            int borrowedInUse,
            int onDemandInUse,
            int lendableHeld,
            String newBooking) {

        static StandingStep of(@Nullable QuotaPolicy policy, Instant start, int held) {
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
            return new StandingStep(
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

    /** A tenant's standing on a GPU type over a window, step by step. */
    /**
     * A tenant's standing on a GPU type: per step, what it holds and what a new booking gets; and what else decides a
     * booking of it: {@code approval}, when its bookings wait for a tenant admin; {@code projects}, each project's own
     * caps with what it holds at most in the window and has spent this month; {@code queued}, its bookings waiting in
     * pools' queues, with their places.
     */
    public record Standing(
            String tenant,
            String gpuType,
            Duration step,
            List<StandingStep> steps,
            QuotaPolicy.@Nullable Approval approval,
            List<ProjectStanding> projects,
            List<QueuedBookings.Queued> queued) {

        public Standing withQueued(List<QueuedBookings.Queued> waiting) {
            return new Standing(tenant, gpuType, step, steps, approval, projects, waiting);
        }
    }

    /** A project's caps on the GPU type, the most it holds at once in the window, and what it spent this month. */
    public record ProjectStanding(
            String project,
            @Nullable Integer maxGpus,
            @Nullable BigDecimal monthlyBudget,
            int heldAtMost,
            BigDecimal spentThisMonth) {}

    /**
     * What is left of a tenant's quota over a window (members read their own): per step, read from the maintained
     * usage, never the history.
     */
    @Transactional(readOnly = true)
    public Standing standing(
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
        List<StandingStep> steps = steps(tenant, type, policy, bounds);
        YearMonth month = YearMonth.from(clock.instant().atZone(ZoneOffset.UTC));
        List<ProjectStanding> projects = repository.projectCaps(tenant.id(), type.id()).stream()
                .filter(cap -> caller.canSeeProject(tenantSlug, cap.project())) // a project member sees its own
                .map(cap -> new ProjectStanding(
                        cap.project(),
                        cap.policy().maxGpus(),
                        cap.policy().monthlyBudget(),
                        peak(repository.heldByProject(tenant.id(), cap.project(), type.id(), from, to)),
                        repository.spentByProject(tenant.id(), cap.project(), type.id(), month)))
                .toList();
        return new Standing(
                tenantSlug, type.code(), step, steps, policy == null ? null : policy.approval(), projects, List.of());
    }

    /**
     * The standing between consecutive {@code bounds}, from one read of the usage: for steps of unequal length, such
     * as a viewer's days, which one fixed step cannot follow where the clocks change.
     */
    @Transactional(readOnly = true)
    public List<StandingStep> standingSteps(
            Caller caller, String tenantSlug, String gpuTypeCode, List<Instant> bounds) {
        Tenant tenant = tenancy.readableInProjects(caller, tenantSlug);
        GpuType type = gpuType(gpuTypeCode);
        return steps(tenant, type, repository.policy(tenant.id(), type.id()).orElse(null), bounds);
    }

    /** For each span between consecutive bounds, the most the tenant holds in it. */
    private List<StandingStep> steps(Tenant tenant, GpuType type, @Nullable QuotaPolicy policy, List<Instant> bounds) {
        UsageSteps usage =
                repository.usage(tenant.id(), type.id(), new TimeWindow(bounds.getFirst(), bounds.getLast()));
        List<StandingStep> steps = new ArrayList<>();
        for (int i = 0; i + 1 < bounds.size(); i++) {
            Instant start = bounds.get(i);
            int held = usage.levelAt(start);
            for (int level : usage.breaks()
                    .subMap(start, false, bounds.get(i + 1), false)
                    .values()) {
                held = Math.max(held, level);
            }
            steps.add(StandingStep.of(policy, start, held));
        }
        return steps;
    }

    // Rate cards

    @Transactional(readOnly = true)
    public List<RateCard> rateCards(String gpuTypeCode) {
        GpuType type = gpuType(gpuTypeCode);
        return repository.rateCards(type.id(), type.code());
    }

    public List<RateCard> putRateCard(Caller caller, RateCard card) {
        caller.requirePlatformAdmin();
        GpuType type = gpuType(card.gpuType());
        repository.upsert(type.id(), card);
        audit.record(AuditRecord.changed(null, "rate-card", type.code() + "@" + card.effectiveFrom(), card, card));
        return repository.rateCards(type.id(), type.code());
    }

    /** A reservation's booked split, in time order (read by billing; shortened by a cancellation). */
    @Transactional(readOnly = true)
    public List<BookedSegment> bookedSegments(UUID reservationId) {
        return repository.segmentsOf(reservationId);
    }

    // The decision, for booking

    /**
     * Decides without booking or locking: for quotes and earliest-fit searches. Throws on a refusal, which
     * leaves the caller's read-only transaction usable (earliest-fit goes on to the next window).
     */
    @Transactional(readOnly = true, noRollbackFor = QuotaExceededException.class)
    public QuotaDecision evaluate(UUID tenantId, GpuType type, TimeWindow window, int gpus) {
        return evaluate(tenantId, null, type, window, gpus);
    }

    /** As {@link #evaluate(UUID, GpuType, TimeWindow, int)}, also against the project's hard budget if any. */
    @Transactional(readOnly = true, noRollbackFor = QuotaExceededException.class)
    public QuotaDecision evaluate(UUID tenantId, @Nullable String project, GpuType type, TimeWindow window, int gpus) {
        QuotaPolicy policy = policy(tenantId, type);
        policy.requireWindow(window, clock.instant());
        return decide(policy, tenantId, project, type, window, gpus).decision();
    }

    /**
     * Locks the tenant's quota row; every booking change of the tenant takes it first, so that its usage
     * cannot change between counting it and committing.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void lock(UUID tenantId) {
        repository.lock(tenantId);
    }

    /**
     * Refuses, under the tenant's lock, volumes that would take the tenant's storage over its {@code storageGi}:
     * {@code heldGi} is what its other volumes hold during the booking's window (the booking module counts them).
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void requireStorage(UUID tenantId, long heldGi, long requestedGi) {
        if (requestedGi == 0) {
            return;
        }
        Optional<Integer> limit = repository.storageGi(tenantId);
        if (limit.isPresent() && heldGi + requestedGi > limit.get()) {
            throw (QuotaExceededException) new QuotaExceededException(
                            "storageGi",
                            "The volumes would bring the tenant's storage to " + (heldGi + requestedGi) + " GiB ("
                                    + heldGi + " GiB held by other volumes then); the quota allows " + limit.get()
                                    + " GiB")
                    .with("field", "cluster.volumes")
                    .with("allowed", limit.get())
                    .with("held", heldGi)
                    .with("requested", requestedGi)
                    .with("exceededBy", heldGi + requestedGi - limit.get());
        }
    }

    /**
     * Decides and records the booking's usage; throws on a refusal. The caller holds the tenant's lock ({@link #lock}),
     * taken first in the booking's transaction: the quota row is locked once per booking.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public QuotaDecision reserve(
            UUID reservationId, UUID tenantId, String project, GpuType type, TimeWindow window, int gpus) {
        QuotaPolicy policy = policy(tenantId, type);
        policy.requireWindow(window, clock.instant());
        Decided decided = decide(policy, tenantId, project, type, window, gpus);
        repository.insert(reservationId, tenantId, project, type.id(), decided.segments());
        return decided.decision();
    }

    /** Adds {@code [oldEnd, whole.end)} to a reservation: the whole window must respect maxWindow. */
    @Transactional(propagation = Propagation.MANDATORY)
    public QuotaDecision extend(
            UUID reservationId,
            UUID tenantId,
            String project,
            GpuType type,
            TimeWindow whole,
            Instant oldEnd,
            int gpus) {
        repository.lock(tenantId);
        QuotaPolicy policy = policy(tenantId, type);
        policy.requireLength(whole);
        TimeWindow extension = new TimeWindow(oldEnd, whole.end());
        Decided decided = decide(policy, tenantId, project, type, extension, gpus);
        repository.insert(reservationId, tenantId, project, type.id(), decided.segments());
        return decided.decision();
    }

    /** Gives back a reservation's usage from {@code from} on (a cancellation). */
    @Transactional(propagation = Propagation.MANDATORY)
    public void release(UUID reservationId, UUID tenantId, Instant from) {
        repository.lock(tenantId);
        repository
                .segmentAt(reservationId, from)
                .ifPresent(stored ->
                        repository.shorten(stored.id(), stored.segment().endingAt(from)));
        repository.deleteFrom(reservationId, from);
    }

    /**
     * Gives back a preempted reservation's usage from {@code from} on, inside the preempting booking's transaction.
     * It does not take the victim tenant's quota lock: two tenants' guaranteed bookings preempting each other's
     * borrowers would then wait on each other. Only usage goes away, so a booking of the victim tenant running at
     * the same time counts at worst more than is left, never less.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void releasePreempted(UUID reservationId, Instant from) {
        repository
                .segmentAt(reservationId, from)
                .ifPresent(stored ->
                        repository.shorten(stored.id(), stored.segment().endingAt(from)));
        repository.deleteFrom(reservationId, from);
    }

    /**
     * Lending limits: per UTC hour of the window, the GPUs of the type that other tenants' guarantees hold back from
     * borrowers (what of {@code guaranteedGpus - lendableGpus} each does not use then, counted as the standing counts
     * it). Hours where nothing is held are absent. When some tenant holds some back, the GPU type's sharing lock is
     * taken first (the lock guarantee changes take), so that two borrowers of the type check one after the other.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public Map<Instant, Integer> heldBackFromBorrowers(UUID borrower, GpuType type, TimeWindow window) {
        return unusedPerHour(repository.heldBack(type.id(), borrower), type, window);
    }

    /** Per tenant, its guarantee of the GPU type (tenants with one only). */
    @Transactional(propagation = Propagation.SUPPORTS)
    public Map<UUID, Integer> guarantees(GpuType type) {
        return repository.guarantees(type.id());
    }

    /**
     * The guarantee headroom: per UTC hour of the window, the GPUs of the type that other tenants' guarantees do not
     * use then (counted as the standing counts it), which must stay coverable by free nodes and by the preemptible
     * holdings beyond their owners' guarantees. Hours where every guarantee is in use are absent. Takes the GPU type's
     * sharing lock when some other tenant has a guarantee, so that two bookings beyond their guarantees check one after
     * the other.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public Map<Instant, Integer> unusedGuaranteesOfOthers(UUID tenantId, GpuType type, TimeWindow window) {
        return unusedPerHour(repository.guaranteesOfOthers(type.id(), tenantId), type, window);
    }

    /** Per hour, what the holders keep of their {@code heldBackGpus} and do not use (least use within the hour). */
    private Map<Instant, Integer> unusedPerHour(
            List<QuotaRepository.HeldBack> holders, GpuType type, TimeWindow window) {
        if (holders.isEmpty()) {
            return Map.of();
        }
        repository.lockGuarantees(type.id());
        Map<Instant, Integer> held = new TreeMap<>();
        for (QuotaRepository.HeldBack holder : holders) {
            UsageSteps usage = repository.usage(holder.tenantId(), type.id(), window);
            for (Instant hour = UsageSteps.hourOf(window.start());
                    hour.isBefore(window.end());
                    hour = hour.plus(Duration.ofHours(1))) {
                Instant from = hour.isBefore(window.start()) ? window.start() : hour;
                Instant to = hour.plus(Duration.ofHours(1)).isBefore(window.end())
                        ? hour.plus(Duration.ofHours(1))
                        : window.end();
                int least = usage.levelAt(from);
                for (int level : usage.breaks().subMap(from, false, to, false).values()) {
                    least = Math.min(least, level);
                }
                int unused = holder.heldBackGpus() - Math.min(least, holder.guaranteedGpus());
                if (unused > 0) {
                    held.merge(hour, unused, Integer::sum);
                }
            }
        }
        return held;
    }

    /** Each tenant's priority class for the GPU type (TRAINING for a tenant without a policy for it). */
    @Transactional(propagation = Propagation.SUPPORTS)
    public Map<UUID, Priority> priorities(Collection<UUID> tenantIds, GpuType type) {
        Map<UUID, Priority> priorities = new HashMap<>();
        for (UUID tenantId : new HashSet<>(tenantIds)) {
            priorities.put(
                    tenantId,
                    repository
                            .policy(tenantId, type.id())
                            .map(QuotaPolicy::priority)
                            .orElse(Priority.TRAINING));
        }
        return priorities;
    }

    private record Decided(QuotaDecision decision, List<PricedSegment> segments) {}

    private Decided decide(
            QuotaPolicy policy, UUID tenantId, @Nullable String project, GpuType type, TimeWindow window, int gpus) {
        List<PricedSegment> priced = split(policy, tenantId, type, window, gpus);
        RateCard card = priced.getFirst().card();
        List<QuotaDecision.BudgetMonth> budget = new ArrayList<>();
        Map<YearMonth, BigDecimal> byMonth = new TreeMap<>();
        priced.forEach(p -> byMonth.merge(p.month(), p.total(), BigDecimal::add));
        if (project != null) {
            requireProjectBudget(tenantId, project, card.currency(), byMonth);
            requireProjectQuota(tenantId, project, type, window, gpus, byMonth);
        }
        if (policy.monthlyBudget() != null) {
            for (Map.Entry<YearMonth, BigDecimal> month : byMonth.entrySet()) {
                BigDecimal spent = repository.spent(tenantId, type.id(), month.getKey());
                BigDecimal left = policy.monthlyBudget().subtract(spent).subtract(month.getValue());
                if (left.signum() < 0) {
                    throw (QuotaExceededException) new QuotaExceededException(
                                    "monthlyBudget",
                                    "The booking costs " + month.getValue() + " " + card.currency() + " in "
                                            + month.getKey()
                                            + ", " + left.negate() + " more than the monthly budget of "
                                            + policy.monthlyBudget()
                                            + " " + card.currency() + " leaves after " + spent + " spent")
                            .with("gpuType", type.code())
                            .with("month", month.getKey().toString())
                            .with("allowed", policy.monthlyBudget())
                            .with("spent", spent)
                            .with("requested", month.getValue())
                            .with("exceededBy", left.negate());
                }
                budget.add(new QuotaDecision.BudgetMonth(
                        month.getKey(), policy.monthlyBudget(), spent, month.getValue(), left));
            }
        }
        return new Decided(QuotaDecision.of(type.code(), card, priced, budget), priced);
    }

    /**
     * Refuses with {@code 422 project_quota_exceeded} a booking that would take its project past the project's cap
     * on the GPU type: more GPUs held at once than {@code maxGpus} at some moment of the window, or its bookings of
     * the type in a month past {@code monthlyBudget}. Runs under the tenant's quota lock, as every booking does.
     */
    private void requireProjectQuota(
            UUID tenantId,
            String project,
            GpuType type,
            TimeWindow window,
            int gpus,
            Map<YearMonth, BigDecimal> byMonth) {
        Optional<ProjectQuotaPolicy> cap = repository.projectPolicies(tenantId, project).stream()
                .filter(policy -> policy.gpuType().equals(type.code()))
                .findFirst();
        if (cap.isEmpty()) {
            return;
        }
        Integer maxGpus = cap.get().maxGpus();
        if (maxGpus != null) {
            int held = peak(repository.heldByProject(tenantId, project, type.id(), window.start(), window.end()));
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
                BigDecimal spent = repository.spentByProject(tenantId, project, type.id(), month.getKey());
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
    private static int peak(List<QuotaRepository.Held> holdings) {
        int peak = 0;
        for (QuotaRepository.Held at : holdings) {
            int sum = holdings.stream()
                    .filter(h -> !h.from().isAfter(at.from()) && h.to().isAfter(at.from()))
                    .mapToInt(QuotaRepository.Held::gpus)
                    .sum();
            peak = Math.max(peak, sum);
        }
        return peak;
    }

    /**
     * Whether the tenant's policy of the type asks for approval of this booking: above its GPU-hours, or (with
     * {@code beyondGuarantee}) not wholly within the guarantee, as {@code decision} split it.
     */
    @Transactional(propagation = Propagation.SUPPORTS, readOnly = true)
    public boolean needsApproval(UUID tenantId, GpuType type, TimeWindow window, int gpus, QuotaDecision decision) {
        return repository
                .policy(tenantId, type.id())
                .map(QuotaPolicy::approval)
                .filter(rules -> rules.needed(gpus, window.duration(), decision.reservedOnly()))
                .isPresent();
    }

    /** A project's caps, per GPU type (tenant members read them). */
    @Transactional(readOnly = true)
    public List<ProjectQuotaPolicy> projectQuota(Caller caller, String tenantSlug, String project) {
        Tenant tenant = tenancy.readableInProjects(caller, tenantSlug);
        if (!caller.canSeeProject(tenantSlug, project)) {
            throw AllotException.notFound("Project " + project + " of tenant " + tenantSlug);
        }
        requireProject(tenantSlug, project);
        return repository.projectPolicies(tenant.id(), project);
    }

    /**
     * Replaces a project's caps (a tenant admin or a platform admin), each within the tenant's own policy of the
     * type: 422 {@code project_quota_exceeds_tenant} naming the field otherwise. Audited.
     */
    public List<ProjectQuotaPolicy> replaceProjectQuota(
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
        List<ProjectQuotaPolicy> before = repository.projectPolicies(tenant.id(), project);
        repository.replaceProjectPolicies(tenant.id(), project, byType);
        List<ProjectQuotaPolicy> after = repository.projectPolicies(tenant.id(), project);
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
    private void requireProjectBudget(
            UUID tenantId, String project, String currency, Map<YearMonth, BigDecimal> byMonth) {
        ProjectBudgetCaps caps = projectCaps.getIfAvailable();
        if (caps == null) {
            return;
        }
        caps.hardCap(tenantId, project)
                .filter(cap -> cap.currency().equals(currency))
                .ifPresent(cap -> {
                    for (Map.Entry<YearMonth, BigDecimal> month : byMonth.entrySet()) {
                        BigDecimal spent = repository.spentByProject(tenantId, project, month.getKey(), currency);
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

    /** What the project's live bookings cost in {@code month} (what its hard budget is checked against). */
    @Transactional(readOnly = true)
    public BigDecimal bookedByProject(UUID tenantId, String project, YearMonth month, String currency) {
        return repository.spentByProject(tenantId, project, month, currency);
    }

    private List<PricedSegment> split(QuotaPolicy policy, UUID tenantId, GpuType type, TimeWindow window, int gpus) {
        List<Segment> segments = policy.split(repository.usage(tenantId, type.id(), window), window, gpus);
        LocalDate day = LocalDate.ofInstant(window.start(), ZoneOffset.UTC);
        RateCard card = repository
                .rateCardAt(type.id(), type.code(), day)
                .orElseThrow(() -> AllotException.unprocessable(
                        "rate_card_missing", "GPU type " + type.code() + " has no rate card in effect on " + day));
        return PricedSegment.price(segments, card);
    }

    private QuotaPolicy policy(UUID tenantId, GpuType type) {
        return repository.policy(tenantId, type.id()).orElseThrow(() -> QuotaExceededException.noPolicy(type.code()));
    }

    private GpuType gpuType(String code) {
        return inventory.gpuType(code).orElseThrow(() -> AllotException.notFound("GPU type " + code));
    }
}
