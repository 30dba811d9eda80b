package dev.allot.billing.budgets;

import dev.allot.shared.InvalidInputException;
import dev.allot.shared.InvalidInputException.FieldError;
import dev.allot.shared.outbound.OutboundUrls;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Currency;
import java.util.HashSet;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.modulith.NamedInterface;

/** A budget as a tenant admin sets it; validates itself and names every bad field. */
@NamedInterface("budgets")
public record BudgetRequest(
        @Nullable BigDecimal amount,
        @Nullable String currency,
        @Nullable List<Integer> thresholds,
        @Nullable String webhookUrl,
        @Nullable String webhookSecret) {

    private static final BigDecimal MAX = new BigDecimal("1000000000000");

    List<Integer> thresholdsOrDefault() {
        return thresholdsOrDefault(thresholds);
    }

    /** Also resolves the webhook's host: it must lead only to addresses the outbound policy allows. */
    void validate(OutboundUrls outbound) {
        List<FieldError> errors = new ArrayList<>();
        validateAmount(amount, currency, thresholds, errors);
        if (webhookUrl != null) {
            outbound.problem(webhookUrl).ifPresent(problem -> errors.add(new FieldError("webhookUrl", problem)));
            if (webhookSecret == null || webhookSecret.length() < 16 || webhookSecret.length() > 200) {
                errors.add(new FieldError("webhookSecret", "must be 16-200 characters when a webhook is set"));
            }
        } else if (webhookSecret != null) {
            errors.add(new FieldError("webhookSecret", "needs a webhookUrl"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
    }

    /** The checks a tenant's and a project's budget share: amount, currency and thresholds. */
    static void validateAmount(
            @Nullable BigDecimal amount,
            @Nullable String currency,
            @Nullable List<Integer> thresholds,
            List<FieldError> errors) {
        if (amount == null) {
            errors.add(new FieldError("amount", "is required"));
        } else if (amount.signum() <= 0
                || amount.compareTo(MAX) >= 0
                || amount.stripTrailingZeros().scale() > 4) {
            errors.add(new FieldError("amount", "must be more than 0 and less than 10^12, with at most 4 decimals"));
        }
        if (currency == null || !currency.matches("^[A-Z]{3}$") || !known(currency)) {
            errors.add(new FieldError("currency", "must be a known ISO 4217 code such as USD"));
        }
        if (thresholds != null) {
            if (thresholds.isEmpty() || thresholds.size() > 10) {
                errors.add(new FieldError("thresholds", "must hold 1 to 10 percentages"));
            } else if (thresholds.stream().anyMatch(t -> t == null || t < 1 || t > 1000)
                    || new HashSet<>(thresholds).size() != thresholds.size()) {
                errors.add(new FieldError("thresholds", "must be distinct percentages from 1 to 1000"));
            }
        }
    }

    static List<Integer> thresholdsOrDefault(@Nullable List<Integer> thresholds) {
        return thresholds == null
                ? Budget.DEFAULT_THRESHOLDS
                : thresholds.stream().sorted().toList();
    }

    private static boolean known(String code) {
        try {
            Currency.getInstance(code);
            return true;
        } catch (IllegalArgumentException ex) {
            return false;
        }
    }
}
