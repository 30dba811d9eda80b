package dev.allot.billing.budgets;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.YearMonth;
import java.util.List;

/**
 * A project's monthly budget with its alert thresholds in percent: {@code spent} is what the ledger holds for
 * the project in {@code month} (what alerts count); {@code booked} is what its live bookings cost in that month
 * (what a hard budget is checked against when booking).
 */
public record ProjectBudget(
        String tenant,
        String project,
        BigDecimal amount,
        String currency,
        List<Integer> thresholds,
        boolean hard,
        long version,
        YearMonth month,
        BigDecimal spent,
        BigDecimal booked) {

    public ProjectBudget {
        thresholds = List.copyOf(thresholds);
    }

    public String etag() {
        return "\"" + version + "\"";
    }

    public BigDecimal percentUsed() {
        return spent.multiply(BigDecimal.valueOf(100)).divide(amount, 2, RoundingMode.HALF_EVEN);
    }
}
