package dev.allot.provisioning.checks;

import dev.allot.provisioning.driver.HealthCheckKind;
import java.util.List;

/** Chooses the parser of a check kind. */
public final class CheckOutputs {

    private CheckOutputs() {}

    /**
     * @param exitCode the check's exit code: a tool that failed and printed nothing its parser can read is a
     * software fault with its first line of output
     */
    public static Verdict judge(HealthCheckKind kind, int level, int exitCode, String output, Expectation expected) {
        Verdict verdict = switch (kind) {
            case NVIDIA_SMI -> NvidiaSmiOutput.judge(output, expected);
            case DCGM_DIAG -> DcgmDiagOutput.judge(output, level);
            case GPU_BURN -> GpuBurnOutput.judge(output, expected);
            case NCCL_ALL_REDUCE -> NcclAllReduceOutput.judge(output, expected);
            case NVBANDWIDTH -> NvbandwidthOutput.judge(output, expected);
        };
        if (verdict.passed() && exitCode != 0) {
            return new Verdict(
                    Verdict.Fault.SOFTWARE,
                    kind + " exited with " + exitCode + " after: " + verdict.summary(),
                    List.of("exit code " + exitCode));
        }
        return verdict;
    }
}
