package dev.allot.provisioning.driver.slurm;

import dev.allot.provisioning.driver.ClusterRef;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.HealthCheckKind;
import dev.allot.provisioning.driver.HealthCheckResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Health-check jobs run with {@code srun}, pinned to their nodes ({@code --nodelist}) in the cluster's partition
 * under the tenant's account, inside the cluster's Slurm reservation once its window has begun. Allot's own Slurm
 * user (the one that runs the commands) joins the tenant's account for that. A job past its timeout is cancelled
 * by name; a node that Slurm reports down, or that fails under the job, is {@code unreachable}.
 */
final class SlurmCheckJobs {

    private static final Logger log = LoggerFactory.getLogger(SlurmCheckJobs.class);

    /** What srun says when the node fails under the job (rather than the check failing on it). */
    private static final List<String> NODE_FAILED = List.of(
            "node failure", "node_fail", "task launch for", "communication connection failure", "invalid node name");

    private final SlurmCommands slurm;

    private final SlurmErrors errors;

    private final SlurmNodes slurmNodes;

    private final SlurmReservations reservations;

    private volatile @Nullable String checkUser;

    SlurmCheckJobs(SlurmCommands slurm, SlurmErrors errors, SlurmNodes slurmNodes, SlurmReservations reservations) {
        this.slurm = slurm;
        this.errors = errors;
        this.slurmNodes = slurmNodes;
        this.reservations = reservations;
    }

    /** Runs {@code command} with one srun across {@code nodes}; {@code tasks} says how many tasks where. */
    HealthCheckResult srun(
            ClusterRef ref,
            List<String> nodes,
            HealthCheckKind kind,
            List<String> command,
            int gpus,
            Duration timeout,
            String jobName,
            List<String> tasks) {
        String target = String.join(",", nodes);
        SlurmReservation reservation = reservations.existing(ref);
        List<String> outside = nodes.stream()
                .filter(node -> !reservation.nodes().contains(node))
                .toList();
        if (!outside.isEmpty()) {
            throw new DriverFailedException(
                    String.join(", ", outside) + " not in Slurm reservation " + ref.name(), false);
        }
        Map<String, String> states = slurmNodes.states();
        List<String> down = nodes.stream()
                .filter(node -> SlurmNodes.unreachable(states.getOrDefault(node, "UNKNOWN")))
                .map(node -> "Slurm reports " + node + " " + states.getOrDefault(node, "UNKNOWN"))
                .toList();
        if (!down.isEmpty()) {
            return new HealthCheckResult(target, kind, -1, String.join("; ", down), Duration.ZERO, false, true);
        }
        ensureCheckUser(ref.tenant());
        List<String> srun = commandLine(ref, reservation, nodes, gpus, timeout, jobName, tasks);
        srun.addAll(command);
        long started = System.nanoTime();
        Optional<SlurmCommands.Result> ran = slurm.run(timeout, srun.toArray(String[]::new));
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        if (ran.isEmpty()) {
            slurm.run("scancel", "--name=" + jobName, "--account=" + ref.tenant());
            log.warn("Health check {} on {} ran past {}: cancelled", kind, target, timeout);
            return new HealthCheckResult(target, kind, -1, "", took, true, false);
        }
        return result(target, nodes, kind, ran.get(), took);
    }

    /** The srun command up to the check's own command. */
    private static List<String> commandLine(
            ClusterRef ref,
            SlurmReservation reservation,
            List<String> nodes,
            int gpus,
            Duration timeout,
            String jobName,
            List<String> tasks) {
        List<String> srun = new ArrayList<>(List.of(
                "srun",
                "--job-name=" + jobName,
                "--account=" + ref.tenant(),
                "--partition=" + ref.name(),
                "--nodelist=" + String.join(",", nodes),
                "--nodes=" + nodes.size(),
                "--time=" + Math.max(1, (timeout.toSeconds() + 59) / 60),
                "--kill-on-bad-exit=1"));
        srun.addAll(tasks);
        if (!reservation.startsAt().isAfter(Instant.now())) {
            srun.add("--reservation=" + ref.name());
        }
        if (gpus > 0) {
            srun.add("--gres=gpu:" + gpus);
        }
        return srun;
    }

    /** What a finished srun tells: the check's outcome, or that a node failed under it. */
    private HealthCheckResult result(
            String target, List<String> nodes, HealthCheckKind kind, SlurmCommands.Result result, Duration took) {
        String lower = result.stderr().toLowerCase(Locale.ROOT);
        // srun may exit 0 when slurmctld cancels a step for a node failure: its error output tells
        boolean nodeFailed = NODE_FAILED.stream().anyMatch(lower::contains);
        if (!nodeFailed && result.exitCode() != 0) {
            // what srun prints when slurmctld ends a step for a node that went down varies with timing (a killed
            // task, an aborted step): the node's state after the job tells
            Map<String, String> after = slurmNodes.states();
            List<String> downAfter = nodes.stream()
                    .filter(node -> SlurmNodes.unreachable(after.getOrDefault(node, "UNKNOWN")))
                    .map(node -> "Slurm reports " + node + " " + after.getOrDefault(node, "UNKNOWN") + " after the job")
                    .toList();
            if (!downAfter.isEmpty()) {
                return new HealthCheckResult(
                        target,
                        kind,
                        result.exitCode(),
                        (String.join("; ", downAfter) + "\n" + result.stderr() + result.stdout()).strip(),
                        took,
                        false,
                        true);
            }
        }
        String output =
                nodeFailed || result.stdout().isBlank() ? (result.stderr() + result.stdout()).strip() : result.stdout();
        return new HealthCheckResult(target, kind, result.exitCode(), output, took, false, nodeFailed);
    }

    /** Allot's Slurm user joins the tenant's account, so that its check jobs may run in the tenant's partition. */
    private void ensureCheckUser(String account) {
        String user = checkUser();
        SlurmCommands.Result shown = slurm.run(
                "sacctmgr", "-n", "-P", "show", "association", "account=" + account, "user=" + user, "format=user");
        if (shown.ok() && shown.stdout().lines().map(String::strip).anyMatch(user::equals)) {
            return;
        }
        SlurmCommands.Result added = slurm.run("sacctmgr", "-i", "add", "user", user, "account=" + account);
        if (!added.ok()) {
            throw errors.failed("sacctmgr add user " + user + " account=" + account, added, List.of());
        }
    }

    /** Allot's own Slurm user ({@code id -un} where the commands run), read once. */
    String checkUser() {
        String user = checkUser;
        if (user == null) {
            SlurmCommands.Result id = slurm.run("id", "-un");
            if (!id.ok() || id.stdout().isBlank()) {
                throw errors.failed("id -un", id, List.of());
            }
            user = id.stdout().strip();
            checkUser = user;
        }
        return user;
    }
}
