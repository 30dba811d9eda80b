package dev.allot.provisioning.checks;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Judges gpu-burn's summary, the lines it prints when the burn ends: {@code Tested N GPUs:} then one
 * {@code GPU i: OK} or {@code GPU i: FAULTY} per GPU. A faulty GPU computed wrong results under stress: hardware.
 */
public final class GpuBurnOutput {

    private static final Pattern TESTED = Pattern.compile("^Tested (\\d+) GPUs:");

    private static final Pattern GPU = Pattern.compile("^GPU (\\d+): (OK|FAULTY)\\b");

    private GpuBurnOutput() {}

    public static Verdict judge(String output, Expectation expected) {
        List<String> lines = output.lines().map(String::strip).toList();
        int summary = -1;
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (TESTED.matcher(lines.get(i)).find()) {
                summary = i;
                break;
            }
        }
        if (summary < 0) {
            return new Verdict(
                    Verdict.Fault.SOFTWARE,
                    "gpu-burn ended without its summary (killed, or no GPU found)",
                    List.of(NvidiaSmiOutput.firstLine(output)));
        }
        List<Verdict.Finding> findings = new ArrayList<>();
        int ok = 0;
        for (String line : lines.subList(summary + 1, lines.size())) {
            Matcher gpu = GPU.matcher(line);
            if (!gpu.find()) {
                continue;
            }
            if (gpu.group(2).equals("OK")) {
                ok++;
            } else {
                findings.add(new Verdict.Finding(
                        Verdict.Fault.HARDWARE,
                        "GPU " + gpu.group(1) + " computed wrong results under stress (FAULTY)"));
            }
        }
        int tested = ok + findings.size();
        if (tested < expected.gpus()) {
            findings.add(
                    new Verdict.Finding(Verdict.Fault.HARDWARE, tested + " of " + expected.gpus() + " GPUs burned"));
        }
        return Verdict.of("gpu-burn", findings, ok + " GPUs OK under stress");
    }
}
