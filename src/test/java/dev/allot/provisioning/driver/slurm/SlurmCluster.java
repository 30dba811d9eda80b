package dev.allot.provisioning.driver.slurm;

import dev.allot.provisioning.driver.DriverProperties.SlurmPool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A real Slurm controller with accounting for the tests. Uses the cluster that {@code SLURM_CONF} points at
 * when that is set (CI starts it with {@code .ci/slurm-up.sh}); otherwise starts one with that script under
 * {@code target/slurm} and stops (and purges) it when the test run ends. Tests are skipped only when the Slurm
 * binaries are not installed.
 */
public final class SlurmCluster implements BeforeAllCallback, ParameterResolver, AutoCloseable {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SlurmCluster.class);

    private static final Path BASE = Path.of("target", "slurm").toAbsolutePath();

    private final String slurmConf;

    private final boolean startedHere;

    /** For {@code @ExtendWith}. */
    public SlurmCluster() {
        this.slurmConf = "";
        this.startedHere = false;
    }

    private SlurmCluster(String slurmConf, boolean startedHere) {
        this.slurmConf = slurmConf;
        this.startedHere = startedHere;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        cluster(context);
    }

    private static SlurmCluster cluster(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE).computeIfAbsent("cluster", key -> start(), SlurmCluster.class);
    }

    private static SlurmCluster start() {
        String existing = System.getenv("SLURM_CONF");
        List<String> needed = new ArrayList<>(List.of("scontrol", "sacctmgr", "sinfo", "sbatch"));
        if (existing == null || existing.isBlank()) {
            needed.addAll(List.of("slurmctld", "slurmd", "slurmdbd", "munged", "mungekey"));
        }
        List<String> absent =
                needed.stream().filter(binary -> !installed(binary)).toList();
        Assumptions.assumeTrue(
                absent.isEmpty(),
                () -> "Slurm is not installed here (missing " + absent
                        + "): run `apt-get install -y slurm-wlm slurmrestd slurmdbd munge`, or set SLURM_CONF");
        if (existing != null && !existing.isBlank()) {
            SlurmCluster reused = new SlurmCluster(existing, false);
            reused.withCudaFeature();
            return reused;
        }
        Result up = exec(List.of("bash", ".ci/slurm-up.sh", BASE.toString()), Duration.ofMinutes(3));
        if (up.exitCode() != 0) {
            throw new IllegalStateException(".ci/slurm-up.sh failed:\n" + up.stderr());
        }
        String conf = up.stdout()
                .lines()
                .filter(line -> line.startsWith("export SLURM_CONF="))
                .map(line -> line.substring("export SLURM_CONF=".length()))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(".ci/slurm-up.sh printed no SLURM_CONF:\n" + up.stdout()));
        SlurmCluster started = new SlurmCluster(conf, true);
        started.withCudaFeature();
        return started;
    }

    /**
     * Gives the GPU nodes the feature {@code cuda550}, as {@code .ci/slurm-up.sh} declares it, on a cluster started
     * by an older copy of the script (which reuses a running cluster), and makes it active: the stand-in slurmds
     * register without features, which leaves the declared ones inactive, so a job's {@code --constraint} finds none.
     */
    private void withCudaFeature() {
        for (String line :
                run("scontrol", "show", "node", "--oneliner").stdout().lines().toList()) {
            SlurmRecord node = SlurmRecord.parse(line);
            String name = node.get("NodeName");
            if (name.startsWith("gpu-") && node.get("ActiveFeatures").isEmpty()) {
                String features = node.get("AvailableFeatures").isEmpty() ? "cuda550" : node.get("AvailableFeatures");
                run(
                        "scontrol",
                        "update",
                        "NodeName=" + name,
                        "AvailableFeatures=" + features,
                        "ActiveFeatures=" + features);
            }
        }
    }

    private static boolean installed(String binary) {
        for (String dir : (System.getenv("PATH") + ":/usr/sbin:/usr/local/sbin").split(":")) {
            if (!dir.isBlank() && Files.isExecutable(Path.of(dir, binary))) {
                return true;
            }
        }
        return false;
    }

    public String slurmConf() {
        return slurmConf;
    }

    public SlurmDriver driver() {
        return SlurmDriver.create(
                "slurm-test",
                new SlurmPool(List.of(), slurmConf, "login.test", ZoneId.systemDefault(), Duration.ofSeconds(30)));
    }

    /** A driver for a pool that sizes each job's /dev/shm, writing the booked sizes where the cluster's Prolog reads them. */
    public SlurmDriver shmSizingDriver() {
        return SlurmDriver.create(
                "slurm-test",
                new SlurmPool(List.of(), slurmConf, "login.test", ZoneId.systemDefault(), Duration.ofSeconds(30))
                        .withShmDir(shmDir()));
    }

    /**
     * Where the cluster's Prolog (ops/slurm/allot-shm-prolog.sh) reads each reservation's /dev/shm size: the
     * {@code SizeDir} of {@code allot-shm.conf} beside slurm.conf.
     */
    public Path shmDir() {
        Path conf = Path.of(slurmConf).resolveSibling("allot-shm.conf");
        try {
            return Files.readAllLines(conf).stream()
                    .filter(line -> line.startsWith("SizeDir="))
                    .map(line -> Path.of(line.substring("SizeDir=".length()).strip()))
                    .reduce((first, last) -> last)
                    .orElseThrow();
        } catch (IOException | NoSuchElementException ex) {
            throw new IllegalStateException(
                    "This Slurm cluster does not size /dev/shm (no SizeDir in " + conf
                            + "): it was started by an older .ci/slurm-up.sh; stop it (.ci/slurm-down.sh) and start it again",
                    ex);
        }
    }

    /**
     * Configures a pool on the Slurm cluster whose {@code slurmConf} is given later (the properties are read after
     * {@code @BeforeAll} resolved the cluster), with checks of these kinds running the stand-in executable that
     * prints the recordings of the folder (src/test/resources/health-outputs/stand-in.sh).
     */
    public static void standInPool(
            DynamicPropertyRegistry registry,
            String pool,
            Supplier<String> slurmConf,
            Path recordings,
            String... kinds) {
        String prefix = "allot.provisioning.pools." + pool;
        registry.add(prefix + ".driver", () -> "slurm");
        registry.add(prefix + ".slurm.slurm-conf", slurmConf::get);
        registry.add(prefix + ".slurm.login-host", () -> "login.test");
        registry.add(prefix + ".slurm.volume-root", () -> volumeRoot().toString());
        Path standIn = standIn();
        for (String kind : kinds) {
            List<String> command = List.of("bash", standIn.toString(), recordings.toString(), kind);
            for (int i = 0; i < command.size(); i++) {
                String arg = command.get(i);
                registry.add("allot.provisioning.health.commands." + kind + "[" + i + "]", () -> arg);
            }
        }
    }

    /** Where test pools keep their volumes: a folder of this host, shared by every test node. */
    public static Path volumeRoot() {
        try {
            return Files.createDirectories(forJobs().resolve("slurm-volumes"));
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * A folder of this host that Slurm jobs see as the tests do, for what a job reads or writes (the stand-in
     * executable, its recordings, volumes): {@code target/slurm-jobs} of the checkout, unless the checkout lies below
     * {@code /tmp}, of which every job gets a private one (job_container/tmpfs); then a folder below
     * {@code /var/lib/allot-slurm}, as {@code .ci/slurm-up.sh} does for the cluster itself. (From a clone under /tmp,
     * 12 Slurm tests failed: the jobs found no stand-in executable.)
     */
    public static Path forJobs() {
        Path target = Path.of("target").toAbsolutePath().normalize();
        Path folder = target.startsWith("/tmp")
                ? Path.of(
                        "/var/lib/allot-slurm",
                        "jobs-" + Integer.toHexString(target.toString().hashCode()))
                : target.resolve("slurm-jobs");
        try {
            return Files.createDirectories(folder);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** The stand-in executable (src/test/resources/health-outputs/stand-in.sh), copied where jobs find it. */
    public static Path standIn() {
        Path copy = forJobs().resolve("stand-in.sh");
        try {
            Files.copy(
                    Path.of("src/test/resources/health-outputs/stand-in.sh"),
                    copy,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return copy;
    }

    /** A new folder of recordings for the stand-in, where jobs find it. */
    public static Path newRecordings(String name) {
        try {
            return Files.createTempDirectory(forJobs(), name);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** Runs a Slurm command against this cluster, as an administrator checking what Slurm holds. */
    public Result run(String... command) {
        return run(Duration.ofSeconds(30), command);
    }

    /** The same with another bound, for a job that may wait for the scheduler's next pass. */
    public Result run(Duration timeout, String... command) {
        List<String> line = new ArrayList<>(List.of("env", "SLURM_TIME_FORMAT=%s", "SLURM_CONF=" + slurmConf));
        line.addAll(List.of(command));
        return exec(line, timeout);
    }

    public record Result(int exitCode, String stdout, String stderr) {}

    /** Runs a Slurm command as a Unix user of this host ({@code runuser}; the tests run as root), as a tenant would. */
    public Result runAs(String user, String... command) {
        List<String> line = new ArrayList<>(List.of("runuser", "-u", user, "--"));
        line.addAll(List.of(command));
        return run(line.toArray(String[]::new));
    }

    /** A new Unix user of this host without a home, named like a tenant member; removed by {@link #removeUser}. */
    public String newUnixUser() {
        String user = "u" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        Result added = exec(List.of("useradd", "-M", "-s", "/usr/sbin/nologin", user), Duration.ofSeconds(30));
        if (added.exitCode() != 0) {
            throw new IllegalStateException("useradd " + user + " failed: " + added.stderr());
        }
        return user;
    }

    public void removeUser(String user) {
        exec(List.of("userdel", user), Duration.ofSeconds(30));
    }

    /**
     * Brings a node a test had Slurm reboot back into service, as after a real reboot (the test host does not
     * reboot): its slurmd restarts (a new {@code SlurmdStartTime}, which Allot waits for) and registers again. A
     * reboot still pending is cancelled first: resuming alone would let Slurm issue it later, and the node would go
     * down under the next test. Waits until the node can run jobs (no down, drain, reboot or not-responding flag),
     * resuming it again while it cannot.
     */
    public void backInService(String node) {
        run("scontrol", "cancel_reboot", node);
        restartSlurmd(node);
        Awaitility.await("Slurm node " + node + " back in service")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> {
                    String state = SlurmRecord.parse(run("scontrol", "show", "node", node, "--oneliner")
                                    .stdout())
                            .get("State");
                    boolean inService =
                            !state.isEmpty() && !state.matches(".*(DOWN|DRAIN|REBOOT|NOT_RESPONDING|FAIL|POWER).*");
                    if (!inService) {
                        run("scontrol", "update", "NodeName=" + node, "State=RESUME");
                    }
                    return inService;
                });
        withCudaFeature(); // a slurmd registering again may leave its declared features inactive
    }

    /** Stops the node's slurmd (its pid file, as {@code .ci/slurm-up.sh} configures it) and starts it again. */
    private void restartSlurmd(String node) {
        Path pidFile = Path.of(slurmConf).getParent().getParent().resolve("slurm/run/slurmd-" + node + ".pid");
        try {
            if (Files.exists(pidFile)) {
                ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()))
                        .ifPresent(slurmd -> {
                            slurmd.destroy();
                            slurmd.onExit().orTimeout(30, TimeUnit.SECONDS).join();
                        });
            }
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
        String slurmd = Files.isExecutable(Path.of("/usr/sbin/slurmd")) ? "/usr/sbin/slurmd" : "slurmd";
        Result started = run(slurmd, "-f", slurmConf, "-N", node);
        if (started.exitCode() != 0) {
            throw new IllegalStateException("slurmd -N " + node + " did not start: " + started.stderr());
        }
    }

    private static Result exec(List<String> command, Duration timeout) {
        try {
            Path out = Files.createTempFile("slurm", ".out");
            Path err = Files.createTempFile("slurm", ".err");
            Process process = new ProcessBuilder(command)
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(command + " did not finish within " + timeout);
            }
            Result result = new Result(
                    process.exitValue(),
                    Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
            Files.delete(out);
            Files.delete(err);
            return result;
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public void close() {
        if (startedHere) {
            exec(List.of("bash", ".ci/slurm-down.sh", BASE.toString(), "--purge"), Duration.ofMinutes(1));
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == SlurmCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return cluster(context);
    }
}
