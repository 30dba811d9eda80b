package dev.allot.provisioning.checks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.provisioning.driver.HealthCheckKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each parser on recorded outputs of the real tools (src/test/resources/health-outputs; each file's header names
 * the documented format it follows), judged against H100 thresholds.
 */
class CheckOutputsTests {

    private static final HealthThresholds.GpuType H100 = new HealthThresholds.GpuType(
            400, 150, Map.of("host_to_device_memcpy_ce", 40.0, "device_to_device_memcpy_read_ce", 300.0));

    private static final Expectation EIGHT = new Expectation("H100", 8, 1, H100);

    /** A recorded output without its {@code @@} header, as the stand-in executables print it. */
    static String recorded(String name) {
        try (InputStream in = CheckOutputsTests.class.getResourceAsStream("/health-outputs/" + name)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int end = text.indexOf("@@ end\n");
            assertThat(end)
                    .as(name + " has a header saying which format it follows")
                    .isPositive();
            return text.substring(end + "@@ end\n".length());
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static Verdict judge(HealthCheckKind kind, String fixture) {
        return CheckOutputs.judge(kind, 3, 0, recorded(fixture), EIGHT);
    }

    @Test
    void nvidiaSmiPassesEightHealthyGpusWhoseCorrectedErrorsDoNotCount() {
        Verdict verdict = judge(HealthCheckKind.NVIDIA_SMI, "nvidia-smi-h100-healthy.txt");
        assertThat(verdict.passed()).as(verdict.toString()).isTrue();
        assertThat(verdict.summary()).startsWith("8 GPUs");
    }

    @Test
    void nvidiaSmiFindsAMissingGpuUncorrectedEccAndHardwareXids() {
        Verdict verdict = judge(HealthCheckKind.NVIDIA_SMI, "nvidia-smi-h100-ecc-xid79.txt");
        assertThat(verdict.fault()).isEqualTo(Verdict.Fault.HARDWARE);
        assertThat(verdict.findings())
                .containsExactly(
                        "GPU 3: 2 uncorrected ECC errors",
                        "7 of 8 GPUs visible",
                        "Xid 94 on 0000:5d:00 (pid=48211, name=python, Contained: SM (0x1). RST: No, D-RST: No)",
                        "Xid 79 on 0000:ab:00 (pid='<unknown>', name=<unknown>, GPU has fallen off the bus.)");
    }

    @Test
    void anApplicationXidIsASoftwareFault() {
        Verdict verdict = judge(HealthCheckKind.NVIDIA_SMI, "nvidia-smi-h100-xid13.txt");
        assertThat(verdict.fault()).isEqualTo(Verdict.Fault.SOFTWARE);
        assertThat(verdict.findings()).singleElement().asString().startsWith("Xid 13 on 0000:3a:00");
    }

    @Test
    void nvidiaSmiWithoutItsTableIsASoftwareFault() {
        Verdict verdict = CheckOutputs.judge(
                HealthCheckKind.NVIDIA_SMI,
                1,
                9,
                "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n",
                EIGHT);
        assertThat(verdict.fault()).isEqualTo(Verdict.Fault.SOFTWARE);
        assertThat(verdict.findings())
                .containsExactly("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.");
    }

    @Test
    void dcgmLevelThreePassesWithASkippedTest() {
        Verdict verdict = judge(HealthCheckKind.DCGM_DIAG, "dcgm-diag-r3-pass.json");
        assertThat(verdict.passed()).as(verdict.toString()).isTrue();
        assertThat(verdict.summary()).isEqualTo("DCGM diagnostic level 3: 5 tests passed");
    }

    @Test
    void dcgmMemoryFailureIsHardwareByItsErrorCategory() {
        Verdict verdict =
                CheckOutputs.judge(HealthCheckKind.DCGM_DIAG, 2, 0, recorded("dcgm-diag-r2-memory-fail.json"), EIGHT);
        assertThat(verdict.fault()).isEqualTo(Verdict.Fault.HARDWARE);
        assertThat(verdict.summary())
                .startsWith("DCGM diagnostic level 2 failed: memory on GPU 1: Volatile double-bit");
    }

    @Test
    void dcgm3LibraryFailureIsSoftwareByItsErrorCategory() {
        Verdict verdict = CheckOutputs.judge(
                HealthCheckKind.DCGM_DIAG, 1, 0, recorded("dcgm-diag-r1-library-fail-dcgm3.json"), EIGHT);
        assertThat(verdict.fault()).isEqualTo(Verdict.Fault.SOFTWARE);
        assertThat(verdict.findings())
                .containsExactly(
                        "NVML Library on GPU 0: Unable to load the NVML library: libnvidia-ml.so.1 not found.");
    }

    @Test
    void dcgmThatPrintsNoJsonOrARuntimeErrorFails() {
        assertThat(CheckOutputs.judge(
                                HealthCheckKind.DCGM_DIAG, 1, 226, "Error: unable to connect to host engine\n", EIGHT)
                        .fault())
                .isEqualTo(Verdict.Fault.SOFTWARE);
        Verdict runtime = CheckOutputs.judge(
                HealthCheckKind.DCGM_DIAG,
                1,
                0,
                "{\"DCGM Diagnostic\": {\"runtime_error\": \"The GPU is in use by another process\"}}",
                EIGHT);
        assertThat(runtime.findings())
                .containsExactly("the diagnostic could not run: The GPU is in use by another process");
    }

    @Test
    void gpuBurnPassesEightOkGpusAndFindsTheFaultyOne() {
        assertThat(judge(HealthCheckKind.GPU_BURN, "gpu-burn-ok.txt").passed()).isTrue();
        Verdict faulty = judge(HealthCheckKind.GPU_BURN, "gpu-burn-faulty.txt");
        assertThat(faulty.fault()).isEqualTo(Verdict.Fault.HARDWARE);
        assertThat(faulty.findings()).containsExactly("GPU 6 computed wrong results under stress (FAULTY)");
        Verdict killed = CheckOutputs.judge(HealthCheckKind.GPU_BURN, 1, 137, "Burning for 60 seconds.\n", EIGHT);
        assertThat(killed.fault()).isEqualTo(Verdict.Fault.SOFTWARE);
    }

    @Test
    void allReduceIsJudgedByItsAverageBusBandwidthAgainstTheGpuTypesThreshold() {
        Verdict fast = judge(HealthCheckKind.NCCL_ALL_REDUCE, "nccl-all-reduce-h100-8.txt");
        assertThat(fast.passed()).as(fast.toString()).isTrue();
        assertThat(fast.summary()).isEqualTo("average bus bandwidth 453.63 GB/s (threshold 400.00 GB/s for H100)");
        Verdict slow = judge(HealthCheckKind.NCCL_ALL_REDUCE, "nccl-all-reduce-h100-8-slow.txt");
        assertThat(slow.fault()).isEqualTo(Verdict.Fault.SOFTWARE);
        assertThat(slow.findings())
                .containsExactly("average bus bandwidth 49.76 GB/s is below the H100 threshold of 400.00 GB/s");
        Verdict acrossNodes = CheckOutputs.judge(
                HealthCheckKind.NCCL_ALL_REDUCE,
                1,
                0,
                recorded("nccl-all-reduce-h100-8-slow.txt"),
                new Expectation("H100", 8, 2, H100));
        assertThat(acrossNodes.summary()).contains("threshold of 150.00 GB/s");
    }

    @Test
    void anAllReduceAcrossTwoNodesIsJudgedByTheMultiNodeThreshold() {
        Expectation twoNodes = new Expectation("H100", 8, 2, H100);
        Verdict healthy = CheckOutputs.judge(
                HealthCheckKind.NCCL_ALL_REDUCE, 1, 0, recorded("nccl-all-reduce-h100-2x8.txt"), twoNodes);
        assertThat(healthy.passed()).as(healthy.toString()).isTrue();
        assertThat(healthy.summary())
                .isEqualTo("average bus bandwidth 264.21 GB/s (threshold 150.00 GB/s for H100 multi-node)");
        Verdict degradedFabric = CheckOutputs.judge(
                HealthCheckKind.NCCL_ALL_REDUCE, 1, 0, recorded("nccl-all-reduce-h100-2x8-slow.txt"), twoNodes);
        assertThat(degradedFabric.fault()).isEqualTo(Verdict.Fault.SOFTWARE);
        assertThat(degradedFabric.findings())
                .containsExactly(
                        "average bus bandwidth 80.43 GB/s is below the H100 multi-node threshold of 150.00 GB/s");
        // the same table judged as one node's would be held to the single-node mark
        assertThat(judge(HealthCheckKind.NCCL_ALL_REDUCE, "nccl-all-reduce-h100-2x8.txt")
                        .passed())
                .isFalse();
    }

    @Test
    void wrongAllReduceValuesAreAHardwareFault() {
        Verdict verdict = judge(HealthCheckKind.NCCL_ALL_REDUCE, "nccl-all-reduce-wrong.txt");
        assertThat(verdict.fault()).isEqualTo(Verdict.Fault.HARDWARE);
        assertThat(verdict.findings()).containsExactly("3072 wrong values in the all-reduce results");
    }

    @Test
    void nvbandwidthReadsEveryTestcaseAndFindsTheSlowHostLink() {
        assertThat(NvbandwidthOutput.cells(recorded("nvbandwidth-h100.txt")))
                .hasEntrySatisfying(
                        "host_to_device_memcpy_ce", cells -> assertThat(cells).hasSize(4))
                .hasEntrySatisfying(
                        "device_to_device_memcpy_read_ce",
                        cells -> assertThat(cells).hasSize(12));
        Verdict verdict = judge(HealthCheckKind.NVBANDWIDTH, "nvbandwidth-h100.txt");
        assertThat(verdict.fault()).isEqualTo(Verdict.Fault.SOFTWARE);
        assertThat(verdict.findings())
                .containsExactly("host_to_device_memcpy_ce: 26.11 GB/s is below the H100 threshold of 40.00 GB/s");
        Verdict lenient = CheckOutputs.judge(
                HealthCheckKind.NVBANDWIDTH,
                1,
                0,
                recorded("nvbandwidth-h100.txt"),
                new Expectation(
                        "A100", 4, 1, new HealthThresholds.GpuType(0, 0, Map.of("host_to_device_memcpy_ce", 20.0))));
        assertThat(lenient.passed()).as(lenient.toString()).isTrue();
    }

    @Test
    void aPassingOutputWithAFailedExitCodeFails() {
        Verdict verdict = CheckOutputs.judge(HealthCheckKind.GPU_BURN, 1, 1, recorded("gpu-burn-ok.txt"), EIGHT);
        assertThat(verdict.fault()).isEqualTo(Verdict.Fault.SOFTWARE);
    }

    @Test
    void thresholdsArePerGpuTypeWithDefaultsAndRefuseNegativeBandwidths() {
        HealthThresholds thresholds =
                new HealthThresholds(new HealthThresholds.GpuType(10, 5, null), Map.of("h100", H100));
        assertThat(thresholds.of("H100")).isEqualTo(H100);
        assertThat(thresholds.of("L40S").ncclBusBandwidthGbps()).isEqualTo(10);
        assertThatThrownBy(() -> new HealthThresholds.GpuType(-1, 0, Map.of()))
                .hasMessageContaining("must not be negative");
    }
}
