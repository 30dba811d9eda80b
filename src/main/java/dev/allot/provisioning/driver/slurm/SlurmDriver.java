package dev.allot.provisioning.driver.slurm;

import dev.allot.provisioning.driver.BuildStep;
import dev.allot.provisioning.driver.ClusterAccess;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterRef;
import dev.allot.provisioning.driver.ClusterStatus;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.DriverProperties.SlurmPool;
import dev.allot.provisioning.driver.HealthCheckJob;
import dev.allot.provisioning.driver.HealthCheckKind;
import dev.allot.provisioning.driver.HealthCheckResult;
import dev.allot.provisioning.driver.MultiNodeCheckJob;
import dev.allot.provisioning.driver.NodesUnavailableException;
import dev.allot.provisioning.driver.ProvisionedCluster;
import dev.allot.provisioning.driver.ProvisionedVolume;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A reservation's cluster on Slurm: the tenant's account (kept across reservations), and, both named
 * {@code allot-<reservation id>}, a Slurm reservation on exactly the reserved nodes for the window and a
 * partition on those nodes open only to the tenant's account; the tenant's users associated with the account and
 * their SSH keys on the login node ({@link SlurmLogins}). Each step first reads what exists and reuses it;
 * every result is read back, because Slurm may grant less than asked.
 */
public final class SlurmDriver implements ClusterDriver {

    private static final Logger log = LoggerFactory.getLogger(SlurmDriver.class);

    private static final DateTimeFormatter SLURM_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

    private final String pool;

    private final SlurmPool config;

    private final SlurmCommands slurm;

    private final SlurmErrors errors;

    private final SlurmLogins logins;

    private final SlurmVolumes volumes;

    private final SlurmCudaFeature cudaFeature;

    private final SlurmSharedMemory sharedMemory;

    SlurmDriver(String pool, SlurmPool config, SlurmCommands slurm) {
        this.pool = pool;
        this.config = config;
        this.slurm = slurm;
        this.errors = new SlurmErrors(pool);
        SlurmCommands loginNode = config.loginNode() == null
                ? null
                : new SlurmCommands(config.loginNode().commandPrefix(), null, config.commandTimeout());
        this.logins =
                new SlurmLogins(slurm, loginNode, config.loginNode(), config.loginHost(), errors, this::checkUser);
        this.volumes = new SlurmVolumes(config.volumeRoot(), config.volumeGroup(), slurm, errors);
        this.cudaFeature = new SlurmCudaFeature(slurm, errors);
        this.sharedMemory = new SlurmSharedMemory(slurm, errors, config.shmDir());
    }

    public static SlurmDriver create(String pool, SlurmPool config) {
        return new SlurmDriver(
                pool, config, new SlurmCommands(config.commandPrefix(), config.slurmConf(), config.commandTimeout()));
    }

    @Override
    public ProvisionedCluster provision(ClusterBlueprint spec) {
        ClusterRef ref = spec.ref();
        List<BuildStep> steps = new ArrayList<>();
        // First, before anything is written: nodes without the booked CUDA driver, or without the memory for the
        // booked /dev/shm, and a controller that cannot size /dev/shm when the pool enforces it, are refused.
        String feature = SlurmCudaFeature.of(spec);
        String seeFeatures = cudaFeature.requireOnNodes(spec);
        steps.add(new BuildStep(
                "Every node carries Slurm feature " + feature + " for CUDA driver " + spec.cudaDriver() + ": "
                        + String.join(",", spec.nodes()),
                seeFeatures));
        sharedMemory.requireFits(spec);
        Optional<String> shmProlog = sharedMemory.requireEnforcing();
        List<ProvisionedVolume> made = volumes.ensure(spec);
        // before the reservation exists, so that no job of it runs without its size
        shmProlog.flatMap(prolog -> sharedMemory.enforce(spec, prolog)).ifPresent(steps::add);
        String account = ensureAccount(ref.tenant());
        steps.add(new BuildStep(
                "Slurm account " + ref.tenant() + " " + account, "sacctmgr show account " + ref.tenant()));
        String[] done = new String[1];
        SlurmReservation reservation = ensureReservation(spec, done);
        steps.add(new BuildStep(
                "Slurm reservation " + ref.name() + " " + done[0] + " on "
                        + String.join(",", reservation.nodes()) + " for account " + ref.tenant() + " until "
                        + reservation.endsAt()
                        + (reservation.features().equals(feature)
                                ? ", Features=" + feature
                                : " (created before CUDA pinning: no Features on the reservation; its nodes carry "
                                        + feature + ")"),
                "scontrol show reservation " + ref.name()));
        String partition = ensurePartition(ref, reservation.nodes());
        steps.add(new BuildStep(
                "Slurm partition " + ref.name() + " " + partition + " on " + String.join(",", reservation.nodes())
                        + ", AllowAccounts=" + ref.tenant(),
                "scontrol show partition " + ref.name()));
        // after the reservation exists, so that a teardown of another reservation of the tenant sees it and keeps
        // the account's users
        steps.addAll(logins.grant(spec));
        return new ProvisionedCluster(ref, reservation.nodes(), accessTo(ref), made, steps);
    }

    @Override
    public void removeVolumes(ClusterRef ref, List<String> names) {
        volumes.remove(ref, names);
    }

    @Override
    public OptionalLong volumeUsage(ClusterRef ref, String name) {
        return volumes.usage(ref, name);
    }

    /** Returns what was done: {@code created} or {@code found}. */
    private String ensureAccount(String account) {
        if (accountExists(account)) {
            return "found";
        }
        SlurmCommands.Result added = slurm.run(
                "sacctmgr",
                "-i",
                "add",
                "account",
                account,
                "Description=allot-tenant-" + account,
                "Organization=" + account);
        // "Nothing new added" (exit 1): a concurrent attempt was first, which is what we want.
        if (!added.ok() && !accountExists(account)) {
            throw errors.failed("sacctmgr add account " + account, added, List.of());
        }
        return added.ok() ? "created" : "found";
    }

    boolean accountExists(String account) {
        SlurmCommands.Result shown = slurm.run("sacctmgr", "-n", "-P", "show", "account", account, "format=account");
        if (!shown.ok()) {
            throw errors.failed("sacctmgr show account", shown, List.of());
        }
        return shown.stdout().lines().map(String::strip).anyMatch(account::equals);
    }

    /** Creates or adjusts the reservation; {@code done[0]} says which ({@code created}, {@code updated}, {@code found}). */
    private SlurmReservation ensureReservation(ClusterBlueprint spec, String[] done) {
        ClusterRef ref = spec.ref();
        Optional<SlurmReservation> existing = reservation(ref);
        Instant now = Instant.now();
        // A window that has begun (a late or repeated provision) starts now: Slurm refuses a start in the past.
        boolean started = !spec.startsAt().isAfter(now.plusSeconds(5));
        Instant end = spec.endsAt().truncatedTo(ChronoUnit.SECONDS);
        String startTime = started ? "now" : slurmTime(spec.startsAt());
        long seconds = Duration.between(spec.startsAt(), end).toSeconds();
        // Duration counts whole minutes; a window that is not (or that has begun) gets its exact end instead.
        String length = !started && seconds % 60 == 0 ? "Duration=" + seconds / 60 : "EndTime=" + slurmTime(end);
        String nodes = String.join(",", spec.nodes());
        if (existing.isEmpty()) {
            SlurmCommands.Result created = slurm.run(
                    "scontrol",
                    "create",
                    "reservation",
                    "ReservationName=" + ref.name(),
                    "StartTime=" + startTime,
                    length,
                    "Nodes=" + nodes,
                    "Accounts=" + ref.tenant(),
                    "Features=" + SlurmCudaFeature.of(spec));
            if (!created.ok()) {
                throw errors.failed("scontrol create reservation " + ref.name(), created, spec.nodes());
            }
            log.info("Created Slurm reservation {} on {} from {} ({})", ref.name(), nodes, startTime, length);
            done[0] = "created";
        } else if (!existing.get().matches(spec.nodes(), ref.tenant(), end)) {
            // An earlier attempt for a different window or node set (an extension or a migration): adjust it.
            SlurmCommands.Result updated = slurm.run(
                    "scontrol",
                    "update",
                    "ReservationName=" + ref.name(),
                    "EndTime=" + slurmTime(end),
                    "Nodes=" + nodes,
                    "Accounts=" + ref.tenant());
            if (!updated.ok()) {
                throw errors.failed("scontrol update reservation " + ref.name(), updated, spec.nodes());
            }
            done[0] = "updated";
        } else {
            done[0] = "found";
        }
        SlurmReservation actual = reservation(ref)
                .orElseThrow(() -> new DriverFailedException("Slurm reservation " + ref.name() + " vanished", true));
        verify(spec, actual, started);
        return actual;
    }

    /** Slurm reads times in the controller's time zone. */
    private String slurmTime(Instant instant) {
        return SLURM_TIME.format(LocalDateTime.ofInstant(instant, config.timeZone()));
    }

    /** Fails, and removes what Slurm made, when it is not what was asked for. */
    private void verify(ClusterBlueprint spec, SlurmReservation actual, boolean started) {
        Set<String> missing = new LinkedHashSet<>(spec.nodes());
        missing.removeAll(actual.nodes());
        Set<String> extra = new LinkedHashSet<>(actual.nodes());
        extra.removeAll(spec.nodes());
        boolean startWrong =
                !started && !actual.startsAt().equals(spec.startsAt().truncatedTo(ChronoUnit.SECONDS));
        boolean endWrong = !actual.endsAt().equals(spec.endsAt().truncatedTo(ChronoUnit.SECONDS));
        if (missing.isEmpty()
                && extra.isEmpty()
                && !startWrong
                && !endWrong
                && actual.accounts().equals(List.of(spec.tenant()))) {
            return;
        }
        slurm.run("scontrol", "delete", "ReservationName=" + actual.name());
        if (!missing.isEmpty()) {
            throw new NodesUnavailableException(
                    List.copyOf(missing), "Slurm reserved only " + actual.nodes() + " of " + spec.nodes());
        }
        throw new DriverFailedException(
                "Slurm reservation " + actual.name() + " differs from the request: " + actual
                        + " (check allot.provisioning.pools." + pool + ".slurm.time-zone)",
                false);
    }

    Optional<SlurmReservation> reservation(ClusterRef ref) {
        SlurmCommands.Result shown = slurm.run("scontrol", "show", "reservation", ref.name(), "--oneliner");
        if (!shown.ok()) {
            if (SlurmErrors.notFound(shown)) {
                return Optional.empty();
            }
            throw errors.failed("scontrol show reservation", shown, List.of());
        }
        SlurmRecord record = SlurmRecord.parse(shown.stdout());
        return Optional.of(new SlurmReservation(
                record.get("ReservationName"),
                hostnames(record.get("Nodes")),
                List.of(record.get("Accounts").split(",")),
                Instant.ofEpochSecond(Long.parseLong(record.get("StartTime"))),
                Instant.ofEpochSecond(Long.parseLong(record.get("EndTime"))),
                record.get("Features")));
    }

    /** Returns what was done: {@code created}, {@code updated} or {@code found}. */
    private String ensurePartition(ClusterRef ref, List<String> nodes) {
        Optional<SlurmRecord> existing = partition(ref);
        String nodeList = String.join(",", nodes);
        if (existing.isEmpty()) {
            SlurmCommands.Result created = slurm.run(
                    "scontrol",
                    "create",
                    "PartitionName=" + ref.name(),
                    "Nodes=" + nodeList,
                    "AllowAccounts=" + ref.tenant(),
                    "State=UP",
                    "MaxTime=INFINITE");
            if (!created.ok() && partition(ref).isEmpty()) {
                throw errors.failed("scontrol create partition " + ref.name(), created, nodes);
            }
            return created.ok() ? "created" : "found";
        } else if (!Set.copyOf(hostnames(existing.get().get("Nodes"))).equals(Set.copyOf(nodes))
                || !existing.get().get("AllowAccounts").equals(ref.tenant())) {
            SlurmCommands.Result updated = slurm.run(
                    "scontrol",
                    "update",
                    "PartitionName=" + ref.name(),
                    "Nodes=" + nodeList,
                    "AllowAccounts=" + ref.tenant(),
                    "State=UP");
            if (!updated.ok()) {
                throw errors.failed("scontrol update partition " + ref.name(), updated, nodes);
            }
            return "updated";
        }
        return "found";
    }

    Optional<SlurmRecord> partition(ClusterRef ref) {
        SlurmCommands.Result shown = slurm.run("scontrol", "show", "partition", ref.name(), "--oneliner");
        if (!shown.ok()) {
            if (SlurmErrors.notFound(shown)) {
                return Optional.empty();
            }
            throw errors.failed("scontrol show partition", shown, List.of());
        }
        return Optional.of(SlurmRecord.parse(shown.stdout()));
    }

    /** Expands a Slurm hostlist such as {@code gpu-[001-003]} exactly as Slurm does. */
    List<String> hostnames(String hostlist) {
        if (hostlist.isBlank()) {
            return List.of();
        }
        SlurmCommands.Result expanded = slurm.run("scontrol", "show", "hostnames", hostlist);
        if (!expanded.ok()) {
            throw errors.failed("scontrol show hostnames", expanded, List.of());
        }
        return expanded.stdout()
                .lines()
                .map(String::strip)
                .filter(line -> !line.isEmpty())
                .toList();
    }

    @Override
    public ClusterStatus status(ClusterRef ref) {
        Optional<SlurmReservation> reservation = reservation(ref);
        Optional<SlurmRecord> partition = partition(ref);
        if (reservation.isEmpty() && partition.isEmpty()) {
            return ClusterStatus.absent(ref);
        }
        List<String> nodes = reservation
                .map(SlurmReservation::nodes)
                .orElseGet(() -> hostnames(partition.get().get("Nodes")));
        List<String> missing = new ArrayList<>();
        if (reservation.isEmpty()) {
            missing.add("reservation");
        }
        if (partition.isEmpty()) {
            missing.add("partition");
        }
        if (!sharedMemory.present(ref)) {
            missing.add("/dev/shm size");
        }
        return new ClusterStatus(
                ref,
                missing.isEmpty() ? ClusterStatus.Phase.READY : ClusterStatus.Phase.INCOMPLETE,
                nodes,
                nodeStates(nodes),
                missing);
    }

    private Map<String, String> nodeStates(List<String> nodes) {
        Map<String, String> all = new SlurmNodes(slurm, errors).states();
        Map<String, String> states = new LinkedHashMap<>();
        nodes.forEach(node -> states.put(node, all.getOrDefault(node, "UNKNOWN")));
        return states;
    }

    @Override
    public ClusterAccess access(ClusterRef ref) {
        if (reservation(ref).isEmpty()) {
            throw new DriverFailedException("Slurm reservation " + ref.name() + " does not exist", false);
        }
        return accessTo(ref);
    }

    private ClusterAccess accessTo(ClusterRef ref) {
        return new ClusterAccess.Slurm(config.loginHost(), ref.tenant(), ref.name(), ref.name());
    }

    @Override
    public ClusterStatus addNodes(ClusterRef ref, List<String> nodes) {
        return changeNodes(ref, nodes, true);
    }

    @Override
    public ClusterStatus removeNodes(ClusterRef ref, List<String> nodes) {
        return changeNodes(ref, nodes, false);
    }

    private ClusterStatus changeNodes(ClusterRef ref, List<String> change, boolean add) {
        SlurmReservation current = reservation(ref)
                .orElseThrow(
                        () -> new DriverFailedException("Slurm reservation " + ref.name() + " does not exist", false));
        Set<String> wanted = new LinkedHashSet<>(current.nodes());
        if (add) {
            if (!current.features().isEmpty()) {
                cudaFeature.requireOnNodes(change, current.features(), "Slurm reservation " + ref.name());
            }
            wanted.addAll(change);
        } else {
            wanted.removeAll(change);
        }
        if (wanted.isEmpty()) {
            throw new DriverFailedException(
                    "A Slurm reservation cannot lose all its nodes; tear it down instead", false);
        }
        if (!wanted.equals(Set.copyOf(current.nodes()))) {
            String nodes = String.join(",", wanted);
            SlurmCommands.Result updated =
                    slurm.run("scontrol", "update", "ReservationName=" + ref.name(), "Nodes=" + nodes);
            if (!updated.ok()) {
                throw errors.failed("scontrol update reservation " + ref.name(), updated, List.copyOf(change));
            }
            List<String> granted = reservation(ref).map(SlurmReservation::nodes).orElse(List.of());
            if (!Set.copyOf(granted).equals(wanted)) {
                throw new NodesUnavailableException(
                        List.copyOf(change), "Slurm holds " + granted + " instead of " + wanted);
            }
        }
        ensurePartition(ref, List.copyOf(wanted));
        return status(ref);
    }

    @Override
    public boolean supportsHealthChecks() {
        return true;
    }

    /**
     * Runs the check with {@code srun}, pinned to the node ({@code --nodelist}) in the cluster's partition under the
     * tenant's account, inside the cluster's Slurm reservation once its window has begun (before handover the
     * window lies ahead, and a job whose time limit ends before it may use the nodes). Allot's Slurm user is added
     * to the tenant's account for that. The job's output comes back through srun; a job past its timeout is
     * cancelled by name. A node that Slurm reports down, or that fails under the job, is {@code unreachable}.
     */
    @Override
    public HealthCheckResult runHealthCheck(HealthCheckJob job) {
        return srun(
                job.ref(),
                List.of(job.node()),
                job.kind(),
                job.command(),
                job.gpus(),
                job.timeout(),
                job.jobName(),
                List.of("--ntasks=1"));
    }

    @Override
    public boolean supportsMultiNodeChecks() {
        return true;
    }

    /**
     * One srun across the nodes ({@code --nodelist}, {@code --nodes=N}, {@code --ntasks-per-node=1}), otherwise as a
     * single-node check; nccl-tests built with MPI find their peers through Slurm's PMI.
     */
    @Override
    public HealthCheckResult runMultiNodeCheck(MultiNodeCheckJob job) {
        return srun(
                job.ref(),
                job.nodes(),
                job.kind(),
                job.command(),
                job.gpusPerNode(),
                job.timeout(),
                job.jobName(),
                List.of("--ntasks-per-node=1"));
    }

    private HealthCheckResult srun(
            ClusterRef ref,
            List<String> nodes,
            HealthCheckKind kind,
            List<String> command,
            int gpus,
            Duration timeout,
            String jobName,
            List<String> tasks) {
        String target = String.join(",", nodes);
        SlurmReservation reservation = reservation(ref)
                .orElseThrow(
                        () -> new DriverFailedException("Slurm reservation " + ref.name() + " does not exist", false));
        List<String> outside = nodes.stream()
                .filter(node -> !reservation.nodes().contains(node))
                .toList();
        if (!outside.isEmpty()) {
            throw new DriverFailedException(
                    String.join(", ", outside) + " not in Slurm reservation " + ref.name(), false);
        }
        Map<String, String> states = new SlurmNodes(slurm, errors).states();
        List<String> down = nodes.stream()
                .filter(node -> unreachable(states.getOrDefault(node, "UNKNOWN")))
                .map(node -> "Slurm reports " + node + " " + states.getOrDefault(node, "UNKNOWN"))
                .toList();
        if (!down.isEmpty()) {
            return new HealthCheckResult(target, kind, -1, String.join("; ", down), Duration.ZERO, false, true);
        }
        ensureCheckUser(ref.tenant());
        List<String> srun = new ArrayList<>(List.of(
                "srun",
                "--job-name=" + jobName,
                "--account=" + ref.tenant(),
                "--partition=" + ref.name(),
                "--nodelist=" + target,
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
        srun.addAll(command);
        long started = System.nanoTime();
        Optional<SlurmCommands.Result> ran = slurm.run(timeout, srun.toArray(String[]::new));
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        if (ran.isEmpty()) {
            slurm.run("scancel", "--name=" + jobName, "--account=" + ref.tenant());
            log.warn("Health check {} on {} ran past {}: cancelled", kind, target, timeout);
            return new HealthCheckResult(target, kind, -1, "", took, true, false);
        }
        SlurmCommands.Result result = ran.get();
        String lower = result.stderr().toLowerCase(Locale.ROOT);
        // srun may exit 0 when slurmctld cancels a step for a node failure: its error output tells
        boolean nodeFailed = NODE_FAILED.stream().anyMatch(lower::contains);
        if (!nodeFailed && result.exitCode() != 0) {
            // what srun prints when slurmctld ends a step for a node that went down varies with timing (a killed
            // task, an aborted step): the node's state after the job tells
            Map<String, String> after = new SlurmNodes(slurm, errors).states();
            List<String> downAfter = nodes.stream()
                    .filter(node -> unreachable(after.getOrDefault(node, "UNKNOWN")))
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

    /** What srun says when the node fails under the job (rather than the check failing on it). */
    private static final List<String> NODE_FAILED = List.of(
            "node failure", "node_fail", "task launch for", "communication connection failure", "invalid node name");

    static boolean unreachable(String state) {
        return state.startsWith("DOWN")
                || state.contains("NOT_RESPONDING")
                || state.startsWith("FAIL")
                || state.contains("+FAIL")
                || state.startsWith("UNKNOWN");
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

    private volatile @Nullable String checkUser;

    private String checkUser() {
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

    /**
     * {@code scontrol reboot ASAP nextstate=RESUME}: Slurm drains the node (no new job starts), reboots it with
     * its {@code RebootProgram} and returns it to service when its slurmd registers again. The node's
     * {@code SlurmdStartTime} is read first: it is the reboot's mark.
     */
    @Override
    public Reboot reboot(ClusterRef ref, String node) {
        String slurmdStarted = shownNode(node).get("SlurmdStartTime");
        SlurmCommands.Result rebooted = slurm.run(
                "scontrol", "reboot", "ASAP", "nextstate=RESUME", "reason=allot-remediation-" + ref.name(), node);
        if (!rebooted.ok()) {
            throw errors.failed("scontrol reboot " + node, rebooted, List.of(node));
        }
        return new Reboot(
                "scontrol reboot ASAP nextstate=RESUME " + node, slurmdStarted.isEmpty() ? null : slurmdStarted);
    }

    /**
     * Back when the node's slurmd has started since the reboot was asked (its {@code SlurmdStartTime} is no longer
     * the mark; a reboot restarts it) and Slurm holds the node in service again: no reboot, down or drain flag.
     * Slurm alone is not enough: right after {@code scontrol reboot ASAP} it may report a node that never restarted
     * as idle, and a check job sent there then hangs in CONFIGURING. Read with {@code scontrol show node}: in 22.05
     * {@code sinfo --json} leaves the pending reboot's flags out.
     */
    @Override
    public boolean backFromReboot(ClusterRef ref, String node, @Nullable String mark) {
        SlurmRecord shown = shownNode(node);
        String state = shown.get("State").toUpperCase(Locale.ROOT);
        return (mark == null || !shown.get("SlurmdStartTime").equals(mark))
                && !state.isEmpty()
                && !unreachable(state)
                && !state.matches(".*(REBOOT|DRAIN|DOWN|NOT_RESPONDING|FAIL|POWER|\\*).*");
    }

    private SlurmRecord shownNode(String node) {
        SlurmCommands.Result shown = slurm.run("scontrol", "show", "node", node, "--oneliner");
        if (!shown.ok()) {
            throw errors.failed("scontrol show node " + node, shown, List.of(node));
        }
        return SlurmRecord.parse(shown.stdout());
    }

    /**
     * Cancels the tenant's jobs in the partition, deletes the reservation, the partition and the /dev/shm size file,
     * then ends the tenant users' access ({@link SlurmLogins#revoke}).
     */
    @Override
    public void teardown(ClusterRef ref) {
        if (partition(ref).isPresent()) {
            slurm.run("scancel", "--partition=" + ref.name());
        }
        SlurmCommands.Result reservation = slurm.run("scontrol", "delete", "ReservationName=" + ref.name());
        if (!reservation.ok() && reservation(ref).isPresent()) {
            throw errors.failed("scontrol delete reservation " + ref.name(), reservation, List.of());
        }
        SlurmCommands.Result partition = slurm.run("scontrol", "delete", "PartitionName=" + ref.name());
        if (!partition.ok() && partition(ref).isPresent()) {
            throw errors.failed("scontrol delete partition " + ref.name(), partition, List.of());
        }
        sharedMemory.remove(ref);
        logins.revoke(ref);
    }

    /**
     * Reasons why this controller does not keep tenants apart: {@code PrivateData} must hide other tenants' jobs,
     * users, usage, accounts and reservations, and {@code EnforcePartLimits} must refuse at submission a job of
     * another account in a tenant's partition (otherwise it is accepted and waits there forever). Empty when
     * the controller isolates tenants.
     */
    public List<String> isolationProblems() {
        SlurmCommands.Result config = slurm.run("scontrol", "show", "config");
        if (!config.ok()) {
            throw errors.failed("scontrol show config", config, List.of());
        }
        Set<String> hidden = Set.of(SlurmRecord.setting(config.stdout(), "PrivateData")
                .toLowerCase(Locale.ROOT)
                .split(","));
        List<String> problems = new ArrayList<>();
        for (String kind : List.of("jobs", "users", "usage", "accounts", "reservations")) {
            if (!hidden.contains(kind)) {
                problems.add("PrivateData does not hide " + kind + ": tenants see each other's " + kind);
            }
        }
        String enforce = SlurmRecord.setting(config.stdout(), "EnforcePartLimits");
        if (!enforce.equals("ALL") && !enforce.equals("ANY")) {
            problems.add(
                    "EnforcePartLimits is " + enforce + ": jobs of other accounts are accepted into tenant partitions");
        }
        return problems;
    }

    @Override
    public String toString() {
        return "slurm driver (" + slurm + ")";
    }
}
