package dev.allot.billing.budgets;

import dev.allot.shared.InvalidInputException;
import dev.allot.shared.InvalidInputException.FieldError;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A project's budget as a tenant admin sets it: alerts go to the tenant budget's webhook (if one is set);
 * {@code hard} (default false) refuses bookings that would take the project's month past the amount.
 */
public record ProjectBudgetRequest(
        @Nullable BigDecimal amount,
        @Nullable String currency,
        @Nullable List<Integer> thresholds,
        @Nullable Boolean hard) {

    void validate() {
        List<FieldError> errors = new ArrayList<>();
        BudgetRequest.validateAmount(amount, currency, thresholds, errors);
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
    }

    List<Integer> thresholdsOrDefault() {
        return BudgetRequest.thresholdsOrDefault(thresholds);
    }

    boolean isHard() {
        return Boolean.TRUE.equals(hard);
    }
}
