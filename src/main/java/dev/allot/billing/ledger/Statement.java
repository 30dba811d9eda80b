package dev.allot.billing.ledger;

import dev.allot.quota.pricing.RateClass;
import java.math.BigDecimal;
import java.time.YearMonth;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A tenant's monthly statement, read from its receivable entries of that month: lines (usage, credits, fees)
 * per project, GPU type, rate class and price; adjustments (reversals, each naming what it reverses and the
 * month that belonged to); and totals per currency, which equal the ledger's. A CLOSED month never changes.
 */
public record Statement(
        String tenant,
        YearMonth month,
        String status,
        List<StatementLine> lines,
        List<Adjustment> adjustments,
        List<Total> totals) {

    public record StatementLine(
            Line line,
            @Nullable String project,
            @Nullable String gpuType,
            @Nullable RateClass rateClass,
            @Nullable BigDecimal unitPrice,
            BigDecimal gpuHours,
            BigDecimal amount,
            String currency) {}

    public record Adjustment(
            long transactionId,
            long reverses,
            YearMonth reversedMonth,
            String reason,
            String actor,
            BigDecimal amount,
            String currency) {}

    public record Total(
            String currency,
            BigDecimal usage,
            BigDecimal credits,
            BigDecimal fees,
            BigDecimal adjustments,
            BigDecimal total) {}

    public Statement {
        lines = List.copyOf(lines);
        adjustments = List.copyOf(adjustments);
        totals = List.copyOf(totals);
    }
}
