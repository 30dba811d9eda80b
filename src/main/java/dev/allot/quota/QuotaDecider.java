package dev.allot.quota;

import dev.allot.inventory.GpuType;
import dev.allot.quota.pricing.RateCard;
import dev.allot.shared.AllotException;
import dev.allot.shared.TimeWindow;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * The decision booking asks for: splits a booking into rate classes against the tenant's usage, prices it with the
 * rate card in effect, and refuses it past a monthly budget or its project's caps. Runs in the caller's transaction.
 */
@Service
class QuotaDecider {

    private final QuotaRepository repository;

    private final QuotaUsageRepository usageRepository;

    private final RateCardRepository rateCards;

    private final ProjectQuotaService projects;

    private final Clock clock;

    QuotaDecider(
            QuotaRepository repository,
            QuotaUsageRepository usageRepository,
            RateCardRepository rateCards,
            ProjectQuotaService projects,
            Clock clock) {
        this.repository = repository;
        this.usageRepository = usageRepository;
        this.rateCards = rateCards;
        this.projects = projects;
        this.clock = clock;
    }

    /** Decides without booking or locking (a quote, an earliest-fit search); throws on a refusal. */
    QuotaDecision evaluate(UUID tenantId, @Nullable String project, GpuType type, TimeWindow window, int gpus) {
        QuotaPolicy policy = policy(tenantId, type);
        policy.requireWindow(window, clock.instant());
        return decide(policy, tenantId, project, type, window, gpus).decision();
    }

    /** Decides and records the booking's usage; throws on a refusal. The caller holds the tenant's lock. */
    QuotaDecision reserve(
            UUID reservationId, UUID tenantId, String project, GpuType type, TimeWindow window, int gpus) {
        QuotaPolicy policy = policy(tenantId, type);
        policy.requireWindow(window, clock.instant());
        Decided decided = decide(policy, tenantId, project, type, window, gpus);
        usageRepository.insert(reservationId, tenantId, project, type.id(), decided.segments());
        return decided.decision();
    }

    /** Decides and records {@code [oldEnd, whole.end)}; the whole window must respect maxWindow. */
    QuotaDecision extend(
            UUID reservationId,
            UUID tenantId,
            String project,
            GpuType type,
            TimeWindow whole,
            Instant oldEnd,
            int gpus) {
        QuotaPolicy policy = policy(tenantId, type);
        policy.requireLength(whole);
        TimeWindow extension = new TimeWindow(oldEnd, whole.end());
        Decided decided = decide(policy, tenantId, project, type, extension, gpus);
        usageRepository.insert(reservationId, tenantId, project, type.id(), decided.segments());
        return decided.decision();
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
            projects.requireProjectBudget(tenantId, project, card.currency(), byMonth);
            projects.requireProjectQuota(tenantId, project, type, window, gpus, byMonth);
        }
        if (policy.monthlyBudget() != null) {
            for (Map.Entry<YearMonth, BigDecimal> month : byMonth.entrySet()) {
                BigDecimal spent = usageRepository.spent(tenantId, type.id(), month.getKey());
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

    private List<PricedSegment> split(QuotaPolicy policy, UUID tenantId, GpuType type, TimeWindow window, int gpus) {
        List<Segment> segments = policy.split(usageRepository.usage(tenantId, type.id(), window), window, gpus);
        LocalDate day = LocalDate.ofInstant(window.start(), ZoneOffset.UTC);
        RateCard card = rateCards
                .rateCardAt(type.id(), type.code(), day)
                .orElseThrow(() -> AllotException.unprocessable(
                        "rate_card_missing", "GPU type " + type.code() + " has no rate card in effect on " + day));
        return PricedSegment.price(segments, card);
    }

    private QuotaPolicy policy(UUID tenantId, GpuType type) {
        return repository.policy(tenantId, type.id()).orElseThrow(() -> QuotaExceededException.noPolicy(type.code()));
    }
}
