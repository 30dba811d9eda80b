package dev.allot.inventory;

import java.util.UUID;

/** Nodes of one GPU type in one region, booked as whole nodes of {@code gpusPerNode} GPUs. */
public record Pool(UUID id, String name, GpuType gpuType, int gpusPerNode, String region) {
}
