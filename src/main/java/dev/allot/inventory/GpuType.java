package dev.allot.inventory;

import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** A kind of GPU, named by its code ({@code H100}); quotas and rate cards are per GPU type. */
public record GpuType(
        UUID id, String code, int memoryGb, @Nullable String interconnect) {}
