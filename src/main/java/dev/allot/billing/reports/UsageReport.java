package dev.allot.billing.reports;

import dev.allot.quota.pricing.RateClass;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A tenant's usage over {@code [from, to)} by the hour it happened, grouped as asked; a dimension not grouped
 * by is null; {@code labels}, grouped by {@code label:<key>}, the value of each such label (null for reservations
 * without it). GPU-hours used and credited, cost, credits and the net, from the ledger (net of reversals).
 */
public record UsageReport(String tenant, Instant from, Instant to, List<String> groupBy, List<Row> items) {

    public record Row(
            @Nullable Instant start,
            @Nullable String project,
            @Nullable String gpuType,
            @Nullable RateClass rateClass,
            String currency,
            BigDecimal gpuHours,
            BigDecimal creditedGpuHours,
            BigDecimal cost,
            BigDecimal credits,
            BigDecimal net,
            @Nullable Map<String, @Nullable String> labels) {}

    public UsageReport {
        groupBy = List.copyOf(groupBy);
        items = List.copyOf(items);
    }
}
