package dev.allot.provisioning.checks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Judges nvbandwidth: per testcase a {@code Running <testcase>.} line, a title such as {@code memcpy CE CPU(row)
 * -> GPU(column) bandwidth (GB/s)}, a header of column indices and one row per source with a bandwidth (or
 * {@code N/A}) per destination; newer versions close each testcase with {@code SUM <testcase> <GB/s>}. Each
 * testcase with a threshold for the GPU type must reach it in every cell; a slow link is a software fault first
 * (a reset restores many), a testcase the tool could not run is a software fault.
 */
public final class NvbandwidthOutput {

    private static final Pattern RUNNING = Pattern.compile("^Running (\\S+?)\\.?$");

    private static final Pattern ROW = Pattern.compile("^(\\d+)((?:\\s+(?:[0-9.]+|N/A))+)$");

    private NvbandwidthOutput() {}

    /** Every testcase's cells, by testcase, as the output lists them. */
    static Map<String, List<Double>> cells(String output) {
        Map<String, List<Double>> cells = new LinkedHashMap<>();
        String testcase = null;
        for (String raw : output.lines().toList()) {
            String line = raw.strip();
            Matcher running = RUNNING.matcher(line);
            if (running.find()) {
                testcase = running.group(1);
                cells.put(testcase, new ArrayList<>());
                continue;
            }
            Matcher row = ROW.matcher(line);
            // the header of column indices has no decimal point; a row of bandwidths has
            if (testcase != null && row.find() && row.group(2).contains(".")) {
                for (String value : row.group(2).strip().split("\\s+")) {
                    if (!value.equals("N/A")) {
                        Objects.requireNonNull(cells.get(testcase), "put with its testcase")
                                .add(Double.parseDouble(value));
                    }
                }
            }
        }
        return cells;
    }

    public static Verdict judge(String output, Expectation expected) {
        Map<String, List<Double>> cells = cells(output);
        if (cells.isEmpty()) {
            return new Verdict(
                    Verdict.Fault.SOFTWARE, "nvbandwidth ran no testcase", List.of(NvidiaSmiOutput.firstLine(output)));
        }
        List<Verdict.Finding> findings = new ArrayList<>();
        List<String> measured = new ArrayList<>();
        for (Map.Entry<String, Double> threshold :
                expected.thresholds().nvbandwidthGbps().entrySet()) {
            List<Double> values = cells.get(threshold.getKey());
            if (values == null || values.isEmpty()) {
                findings.add(new Verdict.Finding(Verdict.Fault.SOFTWARE, threshold.getKey() + " did not run"));
                continue;
            }
            double least =
                    values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            measured.add(String.format(Locale.ROOT, "%s at least %.2f GB/s", threshold.getKey(), least));
            if (least < threshold.getValue()) {
                findings.add(new Verdict.Finding(
                        Verdict.Fault.SOFTWARE,
                        String.format(
                                Locale.ROOT,
                                "%s: %.2f GB/s is below the %s threshold of %.2f GB/s",
                                threshold.getKey(),
                                least,
                                expected.gpuType(),
                                threshold.getValue())));
            }
        }
        return Verdict.of(
                "nvbandwidth",
                findings,
                cells.size() + " testcases" + (measured.isEmpty() ? "" : ", " + String.join(", ", measured)));
    }
}
