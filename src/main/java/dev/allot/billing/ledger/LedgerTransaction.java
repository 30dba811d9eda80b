package dev.allot.billing.ledger;

import dev.allot.quota.pricing.RateClass;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.YearMonth;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** A posted ledger transaction and its entries (debits positive, credits negative; they sum to zero). */
public record LedgerTransaction(
        long id,
        String kind,
        YearMonth month,
        Instant postedAt,
        String description,
        @Nullable Long reverses,
        @Nullable String reason,
        @Nullable String actor,
        List<Entry> entries) {

    public record Entry(
            String account,
            String currency,
            BigDecimal amount,
            Line line,
            @Nullable UUID reservationId,
            @Nullable String project,
            @Nullable String gpuType,
            @Nullable RateClass rateClass,
            @Nullable Instant periodStart,
            @Nullable BigDecimal gpuHours,
            @Nullable BigDecimal unitPrice) {}

    public LedgerTransaction {
        entries = List.copyOf(entries);
    }
}
