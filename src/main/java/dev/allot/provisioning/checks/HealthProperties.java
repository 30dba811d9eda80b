package dev.allot.provisioning.checks;

import dev.allot.provisioning.driver.HealthCheckKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code allot.provisioning.health}: which checks gate handover, what each check runs on a node, how long it
 * may take, the pass marks per GPU type, and how remediation escalates.
 *
 * @param acceptance the checks every node passes before handover, in order
 * @param acceptanceDcgmLevel the {@code dcgmi diag} level of an acceptance {@code DCGM_DIAG} (1 to 3)
 * @param checkTimeout how long one check may run on one node before it is cancelled (a hang)
 * @param commands per kind the program and arguments run on the node; {@code {level}} and {@code {gpus}} are
 * replaced by the DCGM level and the node's GPU count. Defaults run the real tools.
 * @param cooldown a node failing again within this time of a remediation is quarantined
 * @param defaults the pass marks of a GPU type not listed in {@code thresholds}
 * @param thresholds the pass marks per GPU type
 * @param multiNodeAllReduce acceptance of a cluster of several nodes ends with one {@code NCCL_ALL_REDUCE} job
 * across all of them (on drivers that run such jobs), judged by the multi-node bus bandwidth threshold
 * @param rebootTimeout how long a node rebooted for a software fault may take to come back before it is quarantined
 * (Allot checks it again once it is back)
 * @param retryFailedChecks a check that fails on a node (not a hang, not a node that could not run it) runs once
 * more; one that passes then is a software fault (a transient state a reboot clears), whatever the first output
 * looked like. On by default.
 */
@ConfigurationProperties("allot.provisioning.health")
public record HealthProperties(
        List<HealthCheckKind> acceptance,
        int acceptanceDcgmLevel,
        Duration checkTimeout,
        Map<HealthCheckKind, List<String>> commands,
        Duration cooldown,
        HealthThresholds.GpuType defaults,
        Map<String, HealthThresholds.GpuType> thresholds,
        boolean multiNodeAllReduce,
        Duration rebootTimeout,
        Boolean retryFailedChecks) {

    /** The real tools; {@code sh -c} only where the kernel log's Xid lines are appended. */
    static final Map<HealthCheckKind, List<String>> DEFAULT_COMMANDS = Map.of(
            HealthCheckKind.NVIDIA_SMI,
                    List.of(
                            "sh",
                            "-c",
                            "nvidia-smi --query-gpu=index,pci.bus_id,name,"
                                    + "ecc.errors.uncorrected.volatile.total,ecc.errors.corrected.volatile.total --format=csv"
                                    + " && (dmesg 2>/dev/null | grep 'NVRM: Xid' || true)"),
            HealthCheckKind.DCGM_DIAG, List.of("dcgmi", "diag", "-r", "{level}", "-j"),
            HealthCheckKind.GPU_BURN, List.of("gpu_burn", "60"),
            HealthCheckKind.NCCL_ALL_REDUCE,
                    List.of("all_reduce_perf", "-b", "8M", "-e", "8G", "-f", "2", "-g", "{gpus}"),
            HealthCheckKind.NVBANDWIDTH,
                    List.of("nvbandwidth", "-t", "host_to_device_memcpy_ce", "-t", "device_to_device_memcpy_read_ce"));

    public HealthProperties {
        acceptance = acceptance == null ? List.of(HealthCheckKind.NVIDIA_SMI) : List.copyOf(acceptance);
        acceptanceDcgmLevel = acceptanceDcgmLevel == 0 ? 1 : acceptanceDcgmLevel;
        if (acceptanceDcgmLevel < 1 || acceptanceDcgmLevel > 3) {
            throw new IllegalArgumentException("allot.provisioning.health.acceptance-dcgm-level must be 1, 2 or 3");
        }
        checkTimeout = checkTimeout == null ? Duration.ofMinutes(10) : checkTimeout;
        if (checkTimeout.isNegative() || checkTimeout.isZero() || checkTimeout.compareTo(Duration.ofHours(6)) > 0) {
            throw new IllegalArgumentException(
                    "allot.provisioning.health.check-timeout must be positive and at most 6 hours");
        }
        Map<HealthCheckKind, List<String>> merged = new EnumMap<>(DEFAULT_COMMANDS);
        if (commands != null) {
            commands.forEach((kind, command) -> {
                if (command == null || command.isEmpty() || command.getFirst().isBlank()) {
                    throw new IllegalArgumentException(
                            "allot.provisioning.health.commands." + kind + " needs a program");
                }
                merged.put(kind, List.copyOf(command));
            });
        }
        commands = Map.copyOf(merged);
        cooldown = cooldown == null ? Duration.ofHours(24) : cooldown;
        if (cooldown.isNegative()) {
            throw new IllegalArgumentException("allot.provisioning.health.cooldown must not be negative");
        }
        thresholds = thresholds == null ? Map.of() : Map.copyOf(thresholds);
        retryFailedChecks = retryFailedChecks == null || retryFailedChecks;
        rebootTimeout = rebootTimeout == null ? Duration.ofMinutes(30) : rebootTimeout;
        if (rebootTimeout.isNegative() || rebootTimeout.isZero()) {
            throw new IllegalArgumentException("allot.provisioning.health.reboot-timeout must be positive");
        }
    }

    public HealthThresholds gpuTypes() {
        return new HealthThresholds(defaults, thresholds);
    }

    /** The command of a kind with {@code {level}} and {@code {gpus}} filled in. */
    public List<String> command(HealthCheckKind kind, int level, int gpus) {
        List<String> command = new ArrayList<>();
        for (String arg : Objects.requireNonNull(commands.get(kind), "a command for every kind")) {
            command.add(arg.replace("{level}", Integer.toString(level)).replace("{gpus}", Integer.toString(gpus)));
        }
        return command;
    }
}
