package dev.allot.billing.ledger;

import dev.allot.quota.pricing.RateClass;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One line of a posting from the tenant's side: {@code amount} is debited to the tenant's receivable (negative:
 * credited) and the opposite is booked on {@code counter}, so every charge is balanced by construction.
 */
public record Charge(
        Line line,
        Account counter,
        String currency,
        BigDecimal amount,
        @Nullable UUID reservationId,
        @Nullable String project,
        @Nullable String gpuType,
        @Nullable RateClass rateClass,
        @Nullable Instant periodStart,
        long gpuSeconds,
        @Nullable BigDecimal unitPrice) {}
