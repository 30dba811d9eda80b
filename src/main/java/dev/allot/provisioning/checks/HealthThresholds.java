package dev.allot.provisioning.checks;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The pass marks of the checks per GPU type (its code, e.g. {@code H100}); a GPU type not listed is held to
 * {@code defaults}. Configured in {@code allot.provisioning.health}.
 */
public record HealthThresholds(GpuType defaults, Map<String, GpuType> thresholds) {

    public HealthThresholds {
        defaults = defaults == null ? new GpuType(0, 0, Map.of()) : defaults;
        Map<String, GpuType> byType = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        if (thresholds != null) {
            byType.putAll(thresholds);
        }
        thresholds = byType;
    }

    public GpuType of(String gpuType) {
        return thresholds.getOrDefault(gpuType.toUpperCase(Locale.ROOT), defaults);
    }

    /**
     * @param ncclBusBandwidthGbps least average bus bandwidth of a single-node {@code all_reduce_perf}, GB/s
     * (e.g. 350 for 8 H100 over NVLink)
     * @param ncclMultiNodeBusBandwidthGbps least average bus bandwidth of an all-reduce across nodes, GB/s
     * @param nvbandwidthGbps least bandwidth of any cell, per nvbandwidth testcase (e.g.
     * {@code host_to_device_memcpy_ce: 40})
     */
    public record GpuType(
            double ncclBusBandwidthGbps, double ncclMultiNodeBusBandwidthGbps, Map<String, Double> nvbandwidthGbps) {

        public GpuType {
            if (ncclBusBandwidthGbps < 0 || ncclMultiNodeBusBandwidthGbps < 0) {
                throw new IllegalArgumentException("allot.provisioning.health: bandwidths must not be negative");
            }
            nvbandwidthGbps = nvbandwidthGbps == null ? Map.of() : Map.copyOf(nvbandwidthGbps);
            nvbandwidthGbps.forEach((testcase, gbps) -> {
                if (gbps == null || gbps < 0) {
                    throw new IllegalArgumentException("allot.provisioning.health: nvbandwidth " + testcase
                            + " must be a bandwidth of 0 GB/s or more");
                }
            });
        }
    }
}
