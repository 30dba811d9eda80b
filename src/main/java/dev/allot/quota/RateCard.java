package dev.allot.quota;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.EnumMap;
import java.util.Map;

import dev.allot.shared.InvalidInputException;

/** Prices per GPU-hour of one GPU type for each rate class, in effect from a date (UTC) on. */
public record RateCard(String gpuType, LocalDate effectiveFrom, String currency, Map<RateClass, BigDecimal> prices) {

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
	}

	BigDecimal price(RateClass rateClass) {
		return prices.get(rateClass);
	}

	/** The price of GPU-minutes of a class, rounded half-even to four decimals. */
	BigDecimal amount(RateClass rateClass, long gpuMinutes) {
		return price(rateClass).multiply(BigDecimal.valueOf(gpuMinutes))
			.divide(BigDecimal.valueOf(60), SCALE, RoundingMode.HALF_EVEN);
	}

}
