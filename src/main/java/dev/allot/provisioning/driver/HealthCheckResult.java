package dev.allot.provisioning.driver;

import java.time.Duration;

/**
 * What a check's job on one node printed, raw: {@code provisioning.checks} judges it.
 *
 * @param exitCode the job's exit code ({@code -1} when it did not end by itself)
 * @param output what the check printed (standard output, then its error output)
 * @param timedOut the job ran past its timeout and was cancelled
 * @param unreachable the node could not run the job (down, not responding, gone mid-check)
 */
public record HealthCheckResult(
        String node,
        HealthCheckKind kind,
        int exitCode,
        String output,
        Duration took,
        boolean timedOut,
        boolean unreachable) {

    public static HealthCheckResult finished(
            String node, HealthCheckKind kind, int exitCode, String output, Duration took) {
        return new HealthCheckResult(node, kind, exitCode, output, took, false, false);
    }
}
