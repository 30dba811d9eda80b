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
import dev.allot.provisioning.driver.HealthCheckResult;
import dev.allot.provisioning.driver.MultiNodeCheckJob;
import dev.allot.provisioning.driver.ProvisionedCluster;
import dev.allot.provisioning.driver.ProvisionedVolume;
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

/**
 * A reservation's cluster on Slurm: the tenant's account (kept across reservations), and, both named
 * {@code allot-<reservation id>}, a Slurm reservation on exactly the reserved nodes for the window and a
 * partition on those nodes open only to the tenant's account; the tenant's users associated with the account and
 * their SSH keys on the login node ({@link SlurmLogins}). Each step first reads what exists and reuses it;
 * every result is read back, because Slurm may grant less than asked. The steps are {@link SlurmAccounts},
 * {@link SlurmReservations} and {@link SlurmPartitions}; health checks run as {@link SlurmCheckJobs}.
 */
public final class SlurmDriver implements ClusterDriver {

    private final SlurmPool config;

    private final SlurmCommands slurm;

    private final SlurmErrors errors;

    private final SlurmNodes nodes;

    private final SlurmAccounts accounts;

    private final SlurmReservations reservations;

    private final SlurmPartitions partitions;

    private final SlurmCheckJobs checkJobs;

    private final SlurmLogins logins;

    private final SlurmVolumes volumes;

    private final SlurmCudaFeature cudaFeature;

    private final SlurmSharedMemory sharedMemory;

    SlurmDriver(String pool, SlurmPool config, SlurmCommands slurm) {
        this.config = config;
        this.slurm = slurm;
        this.errors = new SlurmErrors(pool);
        this.nodes = new SlurmNodes(slurm, errors);
        this.accounts = new SlurmAccounts(slurm, errors);
        this.reservations = new SlurmReservations(pool, config.timeZone(), slurm, errors, nodes);
        this.partitions = new SlurmPartitions(slurm, errors, nodes);
        this.checkJobs = new SlurmCheckJobs(slurm, errors, nodes, reservations);
        SlurmCommands loginNode = config.loginNode() == null
                ? null
                : new SlurmCommands(config.loginNode().commandPrefix(), null, config.commandTimeout());
        this.logins =
                new SlurmLogins(slurm, loginNode, config.loginNode(), config.loginHost(), errors, checkJobs::checkUser);
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
        String account = accounts.ensure(ref.tenant());
        steps.add(new BuildStep(
                "Slurm account " + ref.tenant() + " " + account, "sacctmgr show account " + ref.tenant()));
        String[] done = new String[1];
        SlurmReservation reservation = reservations.ensure(spec, done);
        steps.add(new BuildStep(
                "Slurm reservation " + ref.name() + " " + done[0] + " on "
                        + String.join(",", reservation.nodes()) + " for account " + ref.tenant() + " until "
                        + reservation.endsAt()
                        + (reservation.features().equals(feature)
                                ? ", Features=" + feature
                                : " (created before CUDA pinning: no Features on the reservation; its nodes carry "
                                        + feature + ")"),
                "scontrol show reservation " + ref.name()));
        String partition = partitions.ensure(ref, reservation.nodes());
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

    boolean accountExists(String account) {
        return accounts.exists(account);
    }

    Optional<SlurmReservation> reservation(ClusterRef ref) {
        return reservations.find(ref);
    }

    Optional<SlurmRecord> partition(ClusterRef ref) {
        return partitions.find(ref);
    }

    /** Expands a Slurm hostlist such as {@code gpu-[001-003]} exactly as Slurm does. */
    List<String> hostnames(String hostlist) {
        return nodes.hostnames(hostlist);
    }

    @Override
    public ClusterStatus status(ClusterRef ref) {
        Optional<SlurmReservation> reservation = reservations.find(ref);
        Optional<SlurmRecord> partition = partitions.find(ref);
        if (reservation.isEmpty() && partition.isEmpty()) {
            return ClusterStatus.absent(ref);
        }
        List<String> nodes = reservation
                .map(SlurmReservation::nodes)
                .orElseGet(() -> this.nodes.hostnames(partition.get().get("Nodes")));
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
        Map<String, String> all = this.nodes.states();
        Map<String, String> states = new LinkedHashMap<>();
        nodes.forEach(node -> states.put(node, all.getOrDefault(node, "UNKNOWN")));
        return states;
    }

    @Override
    public ClusterAccess access(ClusterRef ref) {
        if (reservations.find(ref).isEmpty()) {
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
        SlurmReservation current = reservations.existing(ref);
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
            reservations.moveTo(ref, wanted, change);
        }
        partitions.ensure(ref, List.copyOf(wanted));
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
        return checkJobs.srun(
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
        return checkJobs.srun(
                job.ref(),
                job.nodes(),
                job.kind(),
                job.command(),
                job.gpusPerNode(),
                job.timeout(),
                job.jobName(),
                List.of("--ntasks-per-node=1"));
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
                && !SlurmNodes.unreachable(state)
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
        if (partitions.find(ref).isPresent()) {
            slurm.run("scancel", "--partition=" + ref.name());
        }
        reservations.delete(ref);
        partitions.delete(ref);
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
