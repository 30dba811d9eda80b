package dev.allot.quota.pricing;

/** How a booked GPU-hour is priced: within the guarantee, borrowed above it (preemptible), or on demand (burst). */
public enum RateClass {
    RESERVED,
    BORROWED,
    ON_DEMAND
}
