package dev.allot.quota;

import dev.allot.quota.pricing.RateCard;
import dev.allot.quota.pricing.RateClass;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;

/**
 * What the quota says about a booking: GPU-hours and price per rate class (the quote shown before booking is
 * what the statement shows after), whether any of it is preemptible, and the budget left in each month touched.
 */
public record QuotaDecision(
        String gpuType,
        String currency,
        BigDecimal total,
        List<Line> lines,
        boolean preemptible,
        List<BudgetMonth> budget) {

    public record Line(RateClass rateClass, BigDecimal gpuHours, BigDecimal pricePerGpuHour, BigDecimal amount) {}

    /** {@code spent} is before this booking; {@code left} is after it. */
    public record BudgetMonth(
            YearMonth month, BigDecimal limit, BigDecimal spent, BigDecimal thisBooking, BigDecimal left) {}

    public QuotaDecision {
        lines = List.copyOf(lines);
        budget = List.copyOf(budget);
    }

    static QuotaDecision of(String gpuType, RateCard card, List<PricedSegment> segments, List<BudgetMonth> budget) {
        List<Line> lines = new ArrayList<>();
        BigDecimal total = BigDecimal.ZERO;
        for (RateClass rateClass : RateClass.values()) {
            long gpuMinutes = segments.stream()
                    .mapToLong(s -> s.segment().gpuMinutes(rateClass))
                    .sum();
            BigDecimal amount =
                    segments.stream().map(s -> s.amount(rateClass)).reduce(BigDecimal.ZERO, BigDecimal::add);
            if (gpuMinutes > 0) {
                lines.add(new Line(rateClass, hours(gpuMinutes), card.price(rateClass), amount));
            }
            total = total.add(amount);
        }
        boolean preemptible = segments.stream().anyMatch(s -> s.segment().borrowed() > 0);
        return new QuotaDecision(gpuType, card.currency(), total, lines, preemptible, budget);
    }

    /** All of it within the tenant's guarantee: the only demand that may reclaim capacity from borrowers. */
    public boolean reservedOnly() {
        return !lines.isEmpty() && lines.stream().allMatch(line -> line.rateClass() == RateClass.RESERVED);
    }

    /** This decision followed by an extension's: one quote for the whole reservation. */
    public QuotaDecision plus(QuotaDecision extension) {
        List<Line> merged = new ArrayList<>();
        for (RateClass rateClass : RateClass.values()) {
            List<Line> both = new ArrayList<>(
                    lines.stream().filter(l -> l.rateClass() == rateClass).toList());
            both.addAll(extension.lines.stream()
                    .filter(l -> l.rateClass() == rateClass)
                    .toList());
            if (!both.isEmpty()) {
                merged.add(new Line(
                        rateClass,
                        both.stream().map(Line::gpuHours).reduce(BigDecimal.ZERO, BigDecimal::add),
                        both.getLast().pricePerGpuHour(),
                        both.stream().map(Line::amount).reduce(BigDecimal.ZERO, BigDecimal::add)));
            }
        }
        return new QuotaDecision(
                gpuType,
                currency,
                total.add(extension.total),
                merged,
                preemptible || extension.preemptible,
                extension.budget);
    }

    private static BigDecimal hours(long gpuMinutes) {
        return BigDecimal.valueOf(gpuMinutes).divide(BigDecimal.valueOf(60), 2, RoundingMode.HALF_EVEN);
    }
}
