package dev.allot.billing.budgets;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.YearMonth;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A tenant's monthly budget (soft: it alerts, it does not refuse; a hard cap is quota's {@code monthlyBudget})
 * with its alert thresholds in percent, and what the tenant has spent in {@code month}.
 */
public record Budget(
        String tenant,
        BigDecimal amount,
        String currency,
        List<Integer> thresholds,
        @Nullable String webhookUrl,
        boolean webhookSecretSet,
        long version,
        YearMonth month,
        BigDecimal spent) {

    public static final List<Integer> DEFAULT_THRESHOLDS = List.of(50, 80, 100);

    public Budget {
        thresholds = List.copyOf(thresholds);
    }

    public String etag() {
        return "\"" + version + "\"";
    }

    public BigDecimal percentUsed() {
        return spent.multiply(BigDecimal.valueOf(100)).divide(amount, 2, RoundingMode.HALF_EVEN);
    }

    /** The thresholds that {@code spent} has reached. */
    List<Integer> reached(BigDecimal spentSoFar) {
        return thresholds.stream()
                .filter(t ->
                        spentSoFar.multiply(BigDecimal.valueOf(100)).compareTo(amount.multiply(BigDecimal.valueOf(t)))
                                >= 0)
                .toList();
    }
}
