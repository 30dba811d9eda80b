package dev.allot.provisioning.checks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Judges {@code nvidia-smi --query-gpu=index,pci.bus_id,name,ecc.errors.uncorrected.volatile.total,
 * ecc.errors.corrected.volatile.total --format=csv} (a header line naming the fields, then one line per GPU,
 * {@code [N/A]} or {@code [Not Supported]} where a value is unknown), followed by the kernel's NVRM Xid lines
 * ({@code NVRM: Xid (PCI:0000:18:00): 79, pid=..., ...}) that the check prints from the kernel log.
 * <p>
 * Fewer GPUs than expected, an uncorrected ECC error, or a hardware Xid is a hardware fault; any other Xid
 * (an application's MMU fault, a stopped engine) is a software fault a reset may clear.
 */
public final class NvidiaSmiOutput {

    private static final Pattern XID = Pattern.compile("NVRM: Xid \\(PCI:([0-9a-fA-F:.]+)\\): (\\d+)(?:, (.*))?");

    /** Xids of failing hardware in NVIDIA's Xid catalogue: DBE, row remapping, NVLink, off the bus, ECC, GSP. */
    static final Set<Integer> HARDWARE_XIDS = Set.of(48, 61, 62, 63, 64, 74, 79, 92, 94, 95, 119, 120, 140);

    private NvidiaSmiOutput() {}

    /** The class of fault an Xid reports. */
    public static Verdict.Fault faultOfXid(int xid) {
        return HARDWARE_XIDS.contains(xid) ? Verdict.Fault.HARDWARE : Verdict.Fault.SOFTWARE;
    }

    public static Verdict judge(String output, Expectation expected) {
        List<Verdict.Finding> findings = new ArrayList<>();
        List<String> lines = output.lines()
                .map(String::strip)
                .filter(line -> !line.isEmpty())
                .toList();
        int header = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).toLowerCase(Locale.ROOT).startsWith("index,")) {
                header = i;
                break;
            }
        }
        if (header < 0) {
            return new Verdict(
                    Verdict.Fault.SOFTWARE,
                    "nvidia-smi printed no GPU table (is the driver loaded?)",
                    List.of(firstLine(output)));
        }
        List<String> fields = split(lines.get(header));
        int index = fields.indexOf("index");
        int uncorrected = fields.indexOf("ecc.errors.uncorrected.volatile.total");
        int gpus = 0;
        for (int i = header + 1; i < lines.size() && !lines.get(i).contains("NVRM:"); i++) {
            List<String> values = split(lines.get(i));
            if (values.size() != fields.size()) {
                continue;
            }
            gpus++;
            long errors = uncorrected < 0 ? 0 : number(values.get(uncorrected));
            if (errors > 0) {
                findings.add(new Verdict.Finding(
                        Verdict.Fault.HARDWARE,
                        "GPU " + values.get(Math.max(index, 0)) + ": " + errors + " uncorrected ECC errors"));
            }
        }
        if (gpus < expected.gpus()) {
            findings.add(
                    new Verdict.Finding(Verdict.Fault.HARDWARE, gpus + " of " + expected.gpus() + " GPUs visible"));
        }
        for (String line : lines) {
            Matcher xid = XID.matcher(line);
            if (xid.find()) {
                int code = Integer.parseInt(xid.group(2));
                findings.add(new Verdict.Finding(
                        HARDWARE_XIDS.contains(code) ? Verdict.Fault.HARDWARE : Verdict.Fault.SOFTWARE,
                        "Xid " + code + " on " + xid.group(1)
                                + (xid.group(3) == null ? "" : " (" + xid.group(3) + ")")));
            }
        }
        return Verdict.of("nvidia-smi", findings, gpus + " GPUs, no uncorrected ECC error, no Xid");
    }

    private static List<String> split(String line) {
        return List.of(line.split("\\s*,\\s*"));
    }

    /** A count, or 0 for {@code [N/A]} and {@code [Not Supported]}. */
    private static long number(String value) {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException ex) {
            return 0;
        }
    }

    static String firstLine(String output) {
        return output.lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty())
                .findFirst()
                .orElse("(no output)");
    }
}
