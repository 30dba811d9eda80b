package dev.allot.billing;

import dev.allot.billing.budgets.Budgets;
import dev.allot.shared.security.Caller;
import java.math.BigDecimal;
import java.time.YearMonth;
import java.util.Optional;
import org.springframework.stereotype.Service;

/** What a team has spent this month (UTC) against the budget it set. */
@Service
public class Spending {

    /** A month's budget, what is spent of it, and what is left (negative past it). */
    public record MonthBudget(
            YearMonth month, BigDecimal amount, BigDecimal spent, String currency, BigDecimal percentUsed) {

        public BigDecimal left() {
            return amount.subtract(spent);
        }
    }

    private final Budgets budgets;

    Spending(Budgets budgets) {
        this.budgets = budgets;
    }

    /** This month's budget and spend; empty when the team has set no budget. */
    public Optional<MonthBudget> thisMonth(Caller caller, String tenantSlug) {
        return budgets.find(caller, tenantSlug)
                .map(b -> new MonthBudget(b.month(), b.amount(), b.spent(), b.currency(), b.percentUsed()));
    }
}
