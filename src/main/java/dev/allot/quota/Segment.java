package dev.allot.quota;

import dev.allot.quota.pricing.RateClass;
import dev.allot.shared.TimeWindow;

/** A stretch of a booking over which the tenant's other usage is constant, split into rate classes. */
record Segment(TimeWindow during, int reserved, int borrowed, int onDemand) {

    int gpus(RateClass rateClass) {
        return switch (rateClass) {
            case RESERVED -> reserved;
            case BORROWED -> borrowed;
            case ON_DEMAND -> onDemand;
        };
    }

    int gpus() {
        return reserved + borrowed + onDemand;
    }

    long gpuMinutes(RateClass rateClass) {
        return gpus(rateClass) * during.minutes();
    }
}
