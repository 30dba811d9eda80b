package dev.allot.provisioning.driver.fake;

import dev.allot.provisioning.driver.HealthCheckKind;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * What the real tools would print on a node of {@code gpus} GPUs, healthy or not, in their documented formats,
 * so that the fake driver's checks go through the same parsers and decisions as the real drivers' do.
 */
final class FakeCheckOutputs {

    /** How a fake node is unwell. */
    enum Health {
        HEALTHY,
        SOFTWARE_FAULT,
        HARDWARE_FAULT
    }

    private FakeCheckOutputs() {}

    static String of(HealthCheckKind kind, int gpus, Health health) {
        int n = Math.max(gpus, 1);
        return switch (kind) {
            case NVIDIA_SMI -> nvidiaSmi(n, health);
            case DCGM_DIAG -> dcgm(n, health);
            case GPU_BURN ->
                "Tested " + n + " GPUs:\n"
                        + IntStream.range(0, n)
                                .mapToObj(i -> "\tGPU " + i + ": "
                                        + (i == 0 && health == Health.HARDWARE_FAULT ? "FAULTY" : "OK"))
                                .collect(Collectors.joining("\n"))
                        + "\n";
            case NCCL_ALL_REDUCE ->
                "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : "
                        + (health == Health.HEALTHY ? "480.000" : "12.500") + "\n#\n";
            case NVBANDWIDTH ->
                "Running host_to_device_memcpy_ce.\nmemcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)\n"
                        + IntStream.range(0, n)
                                .mapToObj(i -> String.format(Locale.ROOT, "%10d", i))
                                .collect(Collectors.joining())
                        + "\n 0"
                        + IntStream.range(0, n)
                                .mapToObj(i -> health == Health.HEALTHY || i > 0 ? "     55.20" : "      3.10")
                                .collect(Collectors.joining())
                        + "\n";
        };
    }

    private static String nvidiaSmi(int gpus, Health health) {
        StringBuilder out = new StringBuilder(
                "index, pci.bus_id, name, ecc.errors.uncorrected.volatile.total, ecc.errors.corrected.volatile.total\n");
        for (int i = 0; i < gpus; i++) {
            out.append(i)
                    .append(String.format(Locale.ROOT, ", 00000000:%02X:00.0, Fake GPU, ", 0x18 + i))
                    .append(i == 0 && health == Health.HARDWARE_FAULT ? 2 : 0)
                    .append(", 0\n");
        }
        if (health == Health.SOFTWARE_FAULT) {
            out.append("[ 4411.902117] NVRM: Xid (PCI:0000:18:00): 13, pid=7714, name=fake, Graphics Exception\n");
        }
        return out.toString();
    }

    private static String dcgm(int gpus, Health health) {
        String results = IntStream.range(0, gpus)
                .mapToObj(i -> {
                    boolean failed = i == 0 && health != Health.HEALTHY;
                    int category = health == Health.HARDWARE_FAULT ? 10 : 4;
                    return "{\"entity_group\": \"GPU\", \"entity_group_id\": 1, \"entity_id\": " + i
                            + ", \"status\": \""
                            + (failed
                                    ? "Fail\", \"warnings\": [{\"warning\": \"injected\", \"error_id\": 1, \"error_category\": "
                                            + category + ", \"error_severity\": 2}]}"
                                    : "Pass\"}");
                })
                .collect(Collectors.joining(", "));
        return "{\"DCGM Diagnostic\": {\"test_categories\": [{\"category\": \"Hardware\", \"tests\": [{\"name\": "
                + "\"memory\", \"results\": [" + results + "], \"test_summary\": {\"status\": \"Pass\"}}]}]}}\n";
    }
}
