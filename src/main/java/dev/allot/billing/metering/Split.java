package dev.allot.billing.metering;

import dev.allot.quota.pricing.RateClass;
import dev.allot.shared.TimeWindow;
import java.math.BigDecimal;

/** A stretch of a reservation with the rate-class split decided at booking (copied from quota). */
public record Split(TimeWindow during, int reserved, int borrowed, int onDemand, BigDecimal bookedAmount) {

    int gpus(RateClass rateClass) {
        return switch (rateClass) {
            case RESERVED -> reserved;
            case BORROWED -> borrowed;
            case ON_DEMAND -> onDemand;
        };
    }
}
