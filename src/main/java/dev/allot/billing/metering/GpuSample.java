package dev.allot.billing.metering;

import java.math.BigDecimal;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** One DCGM-style reading: {@code DCGM_FI_DEV_GPU_UTIL} of one GPU of one node at one time. */
public record GpuSample(
        @Nullable String node,
        @Nullable Integer gpu,
        @Nullable BigDecimal utilisation,
        @Nullable Instant time) {}
