package dev.allot.quota.pricing;

import dev.allot.shared.InvalidInputException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * Prices per GPU-hour of one GPU type for each rate class, and the storage line (per GiB-month of a volume booked
 * with a reservation of that type), in effect from a date (UTC) on.
 */
public record RateCard(
        String gpuType,
        LocalDate effectiveFrom,
        String currency,
        Map<RateClass, BigDecimal> prices,
        BigDecimal storagePerGiMonth) {

    /** A GiB-month: 730 hours, as cloud storage prices count it. */
    public static final long GI_MONTH_SECONDS = 730L * 3600;

    public RateCard(String gpuType, LocalDate effectiveFrom, String currency, Map<RateClass, BigDecimal> prices) {
        this(gpuType, effectiveFrom, currency, prices, BigDecimal.ZERO);
    }

    /** Amounts keep four decimals: exact sums, no float. */
    public static final int SCALE = 4;

    public RateCard {
        if (!currency.matches("^[A-Z]{3}$")) {
            throw InvalidInputException.of("currency", "must be an ISO 4217 code such as USD");
        }
        for (RateClass rateClass : RateClass.values()) {
            BigDecimal price = prices.get(rateClass);
            if (price == null) {
                throw InvalidInputException.of("prices." + rateClass, "is required");
            }
            if (price.signum() < 0 || price.scale() > SCALE) {
                throw InvalidInputException.of("prices." + rateClass, "must be 0 or more with at most 4 decimals");
            }
        }
        prices = Map.copyOf(new EnumMap<>(prices));
        storagePerGiMonth = storagePerGiMonth == null ? BigDecimal.ZERO : storagePerGiMonth;
        if (storagePerGiMonth.signum() < 0 || storagePerGiMonth.scale() > SCALE) {
            throw InvalidInputException.of("storagePerGiMonth", "must be 0 or more with at most 4 decimals");
        }
    }

    /** The price of {@code sizeGi} GiB held for {@code seconds}, rounded half-even to four decimals. */
    public BigDecimal storageAmount(int sizeGi, long seconds) {
        return storagePerGiMonth
                .multiply(BigDecimal.valueOf(sizeGi).multiply(BigDecimal.valueOf(seconds)))
                .divide(BigDecimal.valueOf(GI_MONTH_SECONDS), SCALE, RoundingMode.HALF_EVEN);
    }

    public BigDecimal price(RateClass rateClass) {
        return Objects.requireNonNull(prices.get(rateClass), "a rate card prices every rate class");
    }

    /** The price of GPU-minutes of a class, rounded half-even to four decimals. */
    public BigDecimal amount(RateClass rateClass, long gpuMinutes) {
        return price(rateClass)
                .multiply(BigDecimal.valueOf(gpuMinutes))
                .divide(BigDecimal.valueOf(60), SCALE, RoundingMode.HALF_EVEN);
    }
}
