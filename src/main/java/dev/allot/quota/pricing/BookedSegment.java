package dev.allot.quota.pricing;

import dev.allot.shared.TimeWindow;
import java.math.BigDecimal;

/**
 * A stretch of a reservation with a constant rate-class split, as decided at booking, and its booked amount:
 * what billing meters against.
 */
public record BookedSegment(
        TimeWindow during, int reservedGpus, int borrowedGpus, int onDemandGpus, String currency, BigDecimal amount) {

    public int gpus(RateClass rateClass) {
        return switch (rateClass) {
            case RESERVED -> reservedGpus;
            case BORROWED -> borrowedGpus;
            case ON_DEMAND -> onDemandGpus;
        };
    }
}
