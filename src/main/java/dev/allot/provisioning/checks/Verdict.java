package dev.allot.provisioning.checks;

import java.util.List;

/**
 * What a check's output says about a node.
 *
 * @param fault {@link Fault#NONE} when it passed; otherwise the class of the worst finding, which chooses the
 * remediation (a software fault is rebooted, a hardware fault quarantined)
 * @param summary one line for the timeline and the tenant
 * @param findings each problem found, e.g. {@code GPU 3: 2 uncorrected ECC errors}
 */
public record Verdict(Fault fault, String summary, List<String> findings) {

    public Verdict {
        findings = List.copyOf(findings);
    }

    public boolean passed() {
        return fault == Fault.NONE;
    }

    public static Verdict pass(String summary) {
        return new Verdict(Fault.NONE, summary, List.of());
    }

    /** Passes when nothing was found, else fails with the worst fault among the findings. */
    static Verdict of(String what, List<Finding> findings, String passSummary) {
        if (findings.isEmpty()) {
            return pass(passSummary);
        }
        Fault worst = findings.stream().map(Finding::fault).reduce(Fault.SOFTWARE, Fault::worse);
        List<String> lines = findings.stream().map(Finding::text).toList();
        return new Verdict(worst, what + " failed: " + String.join("; ", lines), lines);
    }

    record Finding(Fault fault, String text) {}

    /** The class of a failure, as DCGM's error categories draw it. */
    public enum Fault {

        /** Passed. */
        NONE,
        /** Configuration, driver, library, a resettable Xid, or performance below threshold: a reboot may cure it. */
        SOFTWARE,
        /** Memory, NVLink, PCIe, power, thermal, a GPU missing or off the bus: the node must be quarantined. */
        HARDWARE;

        Fault worse(Fault other) {
            return compareTo(other) >= 0 ? this : other;
        }
    }
}
