package dev.allot.provisioning.checks;

import dev.allot.booking.Reservation;
import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterRef;
import dev.allot.provisioning.driver.HealthCheckJob;
import dev.allot.provisioning.driver.HealthCheckKind;
import dev.allot.provisioning.driver.HealthCheckResult;
import dev.allot.provisioning.driver.MultiNodeCheckJob;
import java.time.Duration;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Runs one check on one node through the pool's driver (a job pinned to the node) and judges what it printed
 * with the kind's parser and the GPU type's thresholds. Used before handover (acceptance) and on demand.
 */
@Component
public class NodeChecks {

    private final HealthProperties properties;

    private final NodeCheckRuns runs;

    NodeChecks(HealthProperties properties, NodeCheckRuns runs) {
        this.properties = properties;
        this.runs = runs;
    }

    /** The nodes of a cluster and what they must show. */
    public record Target(ClusterRef ref, String gpuType, int gpusPerNode, int nodes) {

        /** A reservation's nodes: its GPU type, its GPUs spread evenly over them. */
        public static Target of(ClusterRef ref, Reservation reservation) {
            return new Target(
                    ref,
                    reservation.gpuType(),
                    reservation.gpus() / Math.max(reservation.nodes().size(), 1),
                    reservation.nodes().size());
        }
    }

    /** A node's outcome: the verdict, and the tool's output as it came back. */
    public record Outcome(String node, HealthCheckKind kind, Verdict verdict, String output, Duration took) {

        public boolean passed() {
            return verdict.passed();
        }

        /** {@code KIND: summary}, for the node's health detail and the timeline. */
        public String detail() {
            return kind + ": " + verdict.summary();
        }
    }

    /**
     * Runs the check on the node, and once more when it failed there (see {@link HealthProperties#retryFailedChecks}):
     * a failure that does not come back is a software fault, since a reboot clears what a second run did not meet.
     */
    public Outcome run(ClusterDriver driver, Target target, String node, HealthCheckKind kind, int level) {
        return run(driver, target, node, kind, level, false);
    }

    /** As {@link #run(ClusterDriver, Target, String, HealthCheckKind, int)}; each try recorded when acceptance. */
    private Outcome run(
            ClusterDriver driver, Target target, String node, HealthCheckKind kind, int level, boolean acceptance) {
        HealthCheckJob job = new HealthCheckJob(
                target.ref(),
                node,
                kind,
                properties.command(kind, level, target.gpusPerNode()),
                target.gpusPerNode(),
                properties.checkTimeout());
        HealthCheckResult result = tried(driver, job, target, level, acceptance);
        Verdict verdict = judge(target, result, level, 1);
        if (verdict.passed() || !properties.retryFailedChecks() || result.timedOut() || result.unreachable()) {
            return new Outcome(node, kind, verdict, result.output(), result.took());
        }
        HealthCheckResult again = tried(driver, job, target, level, acceptance);
        Verdict second = judge(target, again, level, 1);
        Duration took = result.took().plus(again.took());
        if (!second.passed()) {
            return new Outcome(node, kind, second, again.output(), took);
        }
        return new Outcome(
                node,
                kind,
                new Verdict(
                        Verdict.Fault.SOFTWARE,
                        verdict.summary() + "; it passed when run again, so the fault is a transient (software) one",
                        verdict.findings()),
                result.output(),
                took);
    }

    /**
     * One {@code NCCL_ALL_REDUCE} job across the nodes, judged by the multi-node threshold; the outcome's node names
     * them all, comma-separated.
     */
    public Outcome acrossNodes(ClusterDriver driver, Target target, List<String> nodes) {
        HealthCheckKind kind = HealthCheckKind.NCCL_ALL_REDUCE;
        MultiNodeCheckJob job = new MultiNodeCheckJob(
                target.ref(),
                nodes,
                kind,
                properties.command(kind, 1, target.gpusPerNode()),
                target.gpusPerNode(),
                properties.checkTimeout());
        HealthCheckResult result = driver.runMultiNodeCheck(job);
        return new Outcome(
                String.join(", ", nodes), kind, judge(target, result, 1, nodes.size()), result.output(), result.took());
    }

    /** The acceptance checks, in order, stopping at a node's first failure. */
    public Outcome accept(ClusterDriver driver, Target target, String node) {
        Outcome last = null;
        for (HealthCheckKind kind : properties.acceptance()) {
            last = run(driver, target, node, kind, properties.acceptanceDcgmLevel(), true);
            if (!last.passed()) {
                return last;
            }
        }
        return last == null
                ? new Outcome(
                        node,
                        HealthCheckKind.NVIDIA_SMI,
                        Verdict.pass("no acceptance check configured"),
                        "",
                        Duration.ZERO)
                : last;
    }

    /** One run of the job on its node; an acceptance run is recorded as it starts and as it ends (NodeCheckRuns). */
    private HealthCheckResult tried(
            ClusterDriver driver, HealthCheckJob job, Target target, int level, boolean acceptance) {
        if (!acceptance) {
            return driver.runHealthCheck(job);
        }
        long run = runs.started(job.node(), target.ref().reservationId(), job.kind());
        HealthCheckResult result;
        try {
            result = driver.runHealthCheck(job);
        } catch (RuntimeException ex) {
            runs.failed(run, String.valueOf(ex.getMessage()));
            throw ex;
        }
        runs.finished(run, judge(target, result, level, 1), result.output());
        return result;
    }

    Verdict judge(Target target, HealthCheckResult result, int level, int nodes) {
        if (result.timedOut()) {
            return new Verdict(
                    Verdict.Fault.SOFTWARE,
                    result.kind() + " did not finish within " + properties.checkTimeout() + ": cancelled (a hang)",
                    List.of("timed out"));
        }
        if (result.unreachable()) {
            return new Verdict(
                    Verdict.Fault.HARDWARE,
                    "the node could not run the check: " + firstLine(result.output()),
                    List.of("unreachable"));
        }
        Expectation expected = new Expectation(
                target.gpuType(),
                Math.max(target.gpusPerNode(), 1),
                nodes,
                properties.gpuTypes().of(target.gpuType()));
        return CheckOutputs.judge(result.kind(), level, result.exitCode(), result.output(), expected);
    }

    private static String firstLine(String output) {
        return output.lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty())
                .findFirst()
                .orElse("(no output)");
    }
}
