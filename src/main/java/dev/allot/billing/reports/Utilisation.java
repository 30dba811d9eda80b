package dev.allot.billing.reports;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A tenant's reserved versus used GPU-hours over {@code [from, to)} by {@code unit} (day, week or month).
 * Reserved is what was billed (metered minus credited). Used weighs each reserved hour by the mean GPU
 * utilisation its nodes reported during the billed part of that hour; an hour without samples counts as
 * reserved but not observed, and is never counted as used.
 */
public record Utilisation(String tenant, Instant from, Instant to, String unit, List<UtilisationBucket> buckets) {

    public record UtilisationBucket(
            Instant start, BigDecimal reservedGpuHours, BigDecimal observedGpuHours, BigDecimal usedGpuHours) {

        /** Used over observed GPU-hours, in percent; null when nothing was observed. */
        public @Nullable BigDecimal percentUsed() {
            return observedGpuHours.signum() == 0
                    ? null
                    : usedGpuHours
                            .multiply(BigDecimal.valueOf(100))
                            .divide(observedGpuHours, 1, RoundingMode.HALF_EVEN);
        }
    }

    public Utilisation {
        buckets = List.copyOf(buckets);
    }
}
