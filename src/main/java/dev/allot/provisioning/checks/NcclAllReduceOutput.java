package dev.allot.provisioning.checks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Judges nccl-tests' {@code all_reduce_perf}: a table of sizes with out-of-place and in-place time, algbw, busbw
 * and {@code #wrong}, closed by {@code # Out of bounds values : N OK|FAILED} and {@code # Avg bus bandwidth : X}
 * (GB/s); run across nodes (MPI, one process per node) only rank 0 prints it, the same way. The node (or node set,
 * against the multi-node threshold) passes when no value was wrong and the average bus bandwidth reaches the GPU
 * type's threshold; a shortfall is a software fault first (clocks, NCCL settings, a reset cures many), wrong
 * values are hardware.
 */
public final class NcclAllReduceOutput {

    private static final Pattern AVG = Pattern.compile("^#\\s*Avg bus bandwidth\\s*:\\s*([0-9.]+)");

    private static final Pattern OUT_OF_BOUNDS = Pattern.compile("^#\\s*Out of bounds values\\s*:\\s*(\\d+)\\s*(\\w+)");

    private NcclAllReduceOutput() {}

    public static Verdict judge(String output, Expectation expected) {
        Double average = null;
        long outOfBounds = 0;
        long wrong = 0;
        for (String raw : output.lines().toList()) {
            String line = raw.strip();
            Matcher avg = AVG.matcher(line);
            if (avg.find()) {
                average = Double.parseDouble(avg.group(1));
                continue;
            }
            Matcher bounds = OUT_OF_BOUNDS.matcher(line);
            if (bounds.find()) {
                outOfBounds = Long.parseLong(bounds.group(1));
                continue;
            }
            if (!line.startsWith("#") && !line.isEmpty() && Character.isDigit(line.charAt(0))) {
                wrong += wrongValues(line);
            }
        }
        if (average == null) {
            return new Verdict(
                    Verdict.Fault.SOFTWARE,
                    "all_reduce_perf ended without its average bus bandwidth",
                    List.of(NvidiaSmiOutput.firstLine(output)));
        }
        double threshold = expected.nodes() > 1
                ? expected.thresholds().ncclMultiNodeBusBandwidthGbps()
                : expected.thresholds().ncclBusBandwidthGbps();
        String of = expected.nodes() > 1 ? expected.gpuType() + " multi-node" : expected.gpuType();
        List<Verdict.Finding> findings = new ArrayList<>();
        if (outOfBounds > 0 || wrong > 0) {
            findings.add(new Verdict.Finding(
                    Verdict.Fault.HARDWARE, (outOfBounds + wrong) + " wrong values in the all-reduce results"));
        }
        if (average < threshold) {
            findings.add(new Verdict.Finding(
                    Verdict.Fault.SOFTWARE,
                    String.format(
                            Locale.ROOT,
                            "average bus bandwidth %.2f GB/s is below the %s threshold of %.2f GB/s",
                            average,
                            of,
                            threshold)));
        }
        return Verdict.of(
                "all_reduce_perf",
                findings,
                String.format(
                        Locale.ROOT,
                        "average bus bandwidth %.2f GB/s (threshold %.2f GB/s for %s)",
                        average,
                        threshold,
                        of));
    }

    /** The two {@code #wrong} columns of a result row (the 9th and 13th fields); {@code N/A} counts none. */
    private static long wrongValues(String row) {
        String[] fields = row.split("\\s+");
        long wrong = 0;
        for (int column : new int[] {8, 12}) {
            if (column < fields.length) {
                try {
                    wrong += Long.parseLong(fields[column]);
                } catch (NumberFormatException ex) {
                    // N/A, or a row of another layout
                }
            }
        }
        return wrong;
    }
}
