package dev.allot.quota;

import dev.allot.inventory.GpuType;
import dev.allot.quota.policies.ProjectQuotaPolicy;
import dev.allot.quota.pricing.BookedSegment;
import dev.allot.quota.pricing.RateCard;
import dev.allot.shared.PageResponse;
import dev.allot.shared.QueuedBookings;
import dev.allot.shared.SearchQuery;
import dev.allot.shared.SearchQuery.Columns;
import dev.allot.shared.TimeWindow;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
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

    /** A tenant's policies, its storage quota in GiB (none: unlimited) and their ETag. */
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

    private final QuotaUsageRepository usageRepository;

    private final Tenancy tenancy;

    private final GuaranteeCapacity guaranteeCapacity;

    private final QuotaDecider decider;

    private final StandingReader standingReader;

    private final ProjectQuotaService projectQuotas;

    private final QuotaPolicyService policyService;

    private final RateCardService rateCardService;

    Quotas(
            QuotaRepository repository,
            QuotaUsageRepository usageRepository,
            Tenancy tenancy,
            GuaranteeCapacity guaranteeCapacity,
            QuotaDecider decider,
            StandingReader standingReader,
            ProjectQuotaService projectQuotas,
            QuotaPolicyService policyService,
            RateCardService rateCardService) {
        this.repository = repository;
        this.usageRepository = usageRepository;
        this.tenancy = tenancy;
        this.guaranteeCapacity = guaranteeCapacity;
        this.decider = decider;
        this.standingReader = standingReader;
        this.projectQuotas = projectQuotas;
        this.policyService = policyService;
        this.rateCardService = rateCardService;
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
        return policyService.replace(caller, tenantSlug, policies, storageGi, ifMatch);
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
        return guaranteeCapacity.overcommitted();
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
            String newBooking) {}

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
        return standingReader.standing(caller, tenantSlug, gpuTypeCode, from, to, step);
    }

    /**
     * The standing between consecutive {@code bounds}, from one read of the usage: for steps of unequal length, such
     * as a viewer's days, which one fixed step cannot follow where the clocks change.
     */
    @Transactional(readOnly = true)
    public List<StandingStep> standingSteps(
            Caller caller, String tenantSlug, String gpuTypeCode, List<Instant> bounds) {
        return standingReader.standingSteps(caller, tenantSlug, gpuTypeCode, bounds);
    }

    // Rate cards

    @Transactional(readOnly = true)
    public List<RateCard> rateCards(String gpuTypeCode) {
        return rateCardService.rateCards(gpuTypeCode);
    }

    public List<RateCard> putRateCard(Caller caller, RateCard card) {
        return rateCardService.putRateCard(caller, card);
    }

    /** A reservation's booked split, in time order (read by billing; shortened by a cancellation). */
    @Transactional(readOnly = true)
    public List<BookedSegment> bookedSegments(UUID reservationId) {
        return usageRepository.segmentsOf(reservationId);
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
        return decider.evaluate(tenantId, project, type, window, gpus);
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
        policyService.requireStorage(tenantId, heldGi, requestedGi);
    }

    /**
     * Decides and records the booking's usage; throws on a refusal. The caller holds the tenant's lock ({@link #lock}),
     * taken first in the booking's transaction: the quota row is locked once per booking.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public QuotaDecision reserve(
            UUID reservationId, UUID tenantId, String project, GpuType type, TimeWindow window, int gpus) {
        return decider.reserve(reservationId, tenantId, project, type, window, gpus);
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
        return decider.extend(reservationId, tenantId, project, type, whole, oldEnd, gpus);
    }

    /** Gives back a reservation's usage from {@code from} on (a cancellation). */
    @Transactional(propagation = Propagation.MANDATORY)
    public void release(UUID reservationId, UUID tenantId, Instant from) {
        repository.lock(tenantId);
        usageRepository.releaseFrom(reservationId, from);
    }

    /**
     * Gives back a preempted reservation's usage from {@code from} on, inside the preempting booking's transaction.
     * It does not take the victim tenant's quota lock: two tenants' guaranteed bookings preempting each other's
     * borrowers would then wait on each other. Only usage goes away, so a booking of the victim tenant running at
     * the same time counts at worst more than is left, never less.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void releasePreempted(UUID reservationId, Instant from) {
        usageRepository.releaseFrom(reservationId, from);
    }

    /**
     * Lending limits: per UTC hour of the window, the GPUs of the type that other tenants' guarantees hold back from
     * borrowers (what of {@code guaranteedGpus - lendableGpus} each does not use then, counted as the standing counts
     * it). Hours where nothing is held are absent. When some tenant holds some back, the GPU type's sharing lock is
     * taken first (the lock guarantee changes take), so that two borrowers of the type check one after the other.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public Map<Instant, Integer> heldBackFromBorrowers(UUID borrower, GpuType type, TimeWindow window) {
        return guaranteeCapacity.heldBackFromBorrowers(borrower, type, window);
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
        return guaranteeCapacity.unusedGuaranteesOfOthers(tenantId, type, window);
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
        return projectQuotas.projectQuota(caller, tenantSlug, project);
    }

    /**
     * Replaces a project's caps (a tenant admin or a platform admin), each within the tenant's own policy of the
     * type: 422 {@code project_quota_exceeds_tenant} naming the field otherwise. Audited.
     */
    public List<ProjectQuotaPolicy> replaceProjectQuota(
            Caller caller, String tenantSlug, String project, List<ProjectQuotaPolicy> policies) {
        return projectQuotas.replaceProjectQuota(caller, tenantSlug, project, policies);
    }

    /** What the project's live bookings cost in {@code month} (what its hard budget is checked against). */
    @Transactional(readOnly = true)
    public BigDecimal bookedByProject(UUID tenantId, String project, YearMonth month, String currency) {
        return usageRepository.spentByProject(tenantId, project, month, currency);
    }
}
