package dev.allot.quota.policies;

import java.math.BigDecimal;
import org.jspecify.annotations.Nullable;

/**
 * A project's cap on one GPU type, within its tenant's policy: {@code maxGpus} held at once and
 * {@code monthlyBudget}, what its bookings of the type may cost in a month (each null: no cap of the project's own).
 */
public record ProjectQuotaPolicy(
        String gpuType, @Nullable Integer maxGpus, @Nullable BigDecimal monthlyBudget) {}
