package dev.allot.billing.reports;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * For platform admins and auditors: fleet utilisation per pool over time (allocated over healthy GPU-hours),
 * the top tenants by GPU-hours, the share of GPU-hours billed on demand (burst), and idle reservations.
 */
public record PlatformReport(
        Instant from,
        Instant to,
        String step,
        List<PoolUtilisation> pools,
        List<TenantUsage> topTenants,
        BurstShare burst,
        List<IdleReservation> idleReservations) {

    public record PoolUtilisation(String pool, List<PlatformBucket> buckets) {}

    public record PlatformBucket(
            Instant start, BigDecimal healthyGpuHours, BigDecimal allocatedGpuHours, BigDecimal utilisation) {}

    public record TenantUsage(String tenant, BigDecimal gpuHours, BigDecimal net, String currency) {}

    public record BurstShare(BigDecimal onDemandGpuHours, BigDecimal gpuHours, BigDecimal share) {}

    public record IdleReservation(
            UUID reservationId,
            String tenant,
            String pool,
            Instant idleSince,
            Instant flaggedAt,
            BigDecimal maxUtilisation) {}
}
