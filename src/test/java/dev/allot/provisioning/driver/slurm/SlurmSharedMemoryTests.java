package dev.allot.provisioning.driver.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.provisioning.Specs;
import dev.allot.provisioning.driver.BuildStep;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.DriverProperties.SlurmPool;
import dev.allot.provisioning.driver.NodesUnavailableException;
import dev.allot.provisioning.driver.ProvisionedCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The booked shared memory against a real Slurm cluster ({@link SlurmCluster}): the fake GPU nodes declare
 * {@code RealMemory=512000} (500 GiB), which bounds the /dev/shm a reservation on them can have; the cluster runs
 * job_container/tmpfs with the Prolog ops/slurm/allot-shm-prolog.sh, which sizes each job's /dev/shm.
 */
@ExtendWith(SlurmCluster.class)
class SlurmSharedMemoryTests {

    /** Nodes whose slurmd runs jobs; the first free one for the next hour is used (other tests share the cluster). */
    private static final List<String> JOB_NODES = List.of("gpu-020", "gpu-022", "gpu-006", "gpu-018", "gpu-005");

    private SlurmCluster slurm;

    private SlurmDriver driver;

    private @Nullable ClusterBlueprint started;

    @BeforeEach
    void driver(SlurmCluster slurm) {
        this.slurm = slurm;
        this.driver = slurm.driver();
    }

    @AfterEach
    void teardown() {
        if (started != null) {
            slurm.shmSizingDriver().teardown(started.ref());
        }
    }

    @Test
    void everyJobInTheReservationSeesItsOwnTmpfsDevShmOfTheBookedSize() {
        SlurmDriver sizing = slurm.shmSizingDriver();
        ProvisionedCluster cluster = provisionStartedNow(sizing, 48);
        String name = started.ref().name();
        Path sizeFile = slurm.shmDir().resolve(name);

        assertThat(cluster.steps())
                .extracting(BuildStep::line)
                .anySatisfy(line -> assertThat(line)
                        .startsWith("Every job of Slurm reservation " + name
                                + " (and of its partition) gets a private tmpfs " + "/dev/shm of 48 GiB: " + sizeFile
                                + " holds 48, which the Prolog ")
                        .contains("allot-shm-prolog.sh mounts under job_container/tmpfs with PrologFlags=Contain")
                        .endsWith("(see: cat " + sizeFile + "; in a job: df -h /dev/shm)."));
        assertThat(slurm.run("cat", sizeFile.toString()).stdout().strip()).isEqualTo("48");
        assertThat(sizing.status(started.ref()).missing()).isEmpty();
        // a tenant user of the account (here root, added as a tenant admin would add a user)
        assertThat(slurm.run("sacctmgr", "-i", "add", "user", "root", "account=" + started.tenant())
                        .exitCode())
                .isZero();

        List<String> first = job("stat -f -c %T /dev/shm; df -B1 --output=size /dev/shm | tail -n 1; "
                + "echo mine > /dev/shm/allot-$SLURM_JOB_ID; ls -A /dev/shm; echo $SLURM_JOB_ID");
        List<String> second = job("ls -A /dev/shm | wc -l; df -B1 --output=size /dev/shm | tail -n 1");

        assertThat(first).hasSize(4);
        assertThat(first.get(0)).isEqualTo("tmpfs");
        assertThat(Long.parseLong(first.get(1))).isEqualTo(48L << 30);
        assertThat(first.get(2)).isEqualTo("allot-" + first.get(3));
        // what the job wrote stays in its own /dev/shm: neither the node nor the next job sees it
        assertThat(Path.of("/dev/shm/allot-" + first.get(3))).doesNotExist();
        assertThat(second).containsExactly("0", Long.toString(48L << 30));

        sizing.teardown(started.ref());
        started = null;
        assertThat(sizeFile).doesNotExist();
    }

    @Test
    void aPoolThatSizesDevShmRefusesAControllerWithoutJobContainerTmpfsBeforeWritingAnything() {
        // stands in for `scontrol show config` of a controller without the settings
        SlurmCommands controller = new SlurmCommands(
                List.of(
                        "bash",
                        "-c",
                        "printf 'JobContainerType        = job_container/none\\nPrologFlags             = Alloc\\n"
                                + "Prolog                  = (null)\\n'",
                        "x"),
                null,
                Duration.ofSeconds(10));
        SlurmSharedMemory shm = new SlurmSharedMemory(controller, new SlurmErrors("p"), Path.of("/shared/shm"));

        assertThatThrownBy(shm::requireEnforcing)
                .isInstanceOf(DriverFailedException.class)
                .hasMessage(
                        "slurm.shm-dir is set, so each job's /dev/shm must be sized, but the Slurm controller cannot: "
                                + "JobContainerType is job_container/none, not job_container/tmpfs; PrologFlags is Alloc, without "
                                + "Contain; no Prolog is set (the nodes need ops/slurm/allot-shm-prolog.sh) (see scontrol show config)")
                .satisfies(ex ->
                        assertThat(((DriverFailedException) ex).retryable()).isFalse());
        assertThat(new SlurmSharedMemory(controller, new SlurmErrors("p"), null).requireEnforcing())
                .isEmpty();
    }

    @Test
    void anShmDirMustBeAnAbsoluteNormalizedPath() {
        assertThatThrownBy(() -> new SlurmPool(List.of(), null, null, null, null).withShmDir(Path.of("/shared/../etc")))
                .hasMessageContaining("slurm.shm-dir");
        assertThatThrownBy(() -> new SlurmPool(List.of(), null, null, null, null).withShmDir(Path.of("shm")))
                .hasMessageContaining("slurm.shm-dir");
    }

    @Test
    void sharedMemoryAboveANodesRealMemoryIsRefusedForGoodAndNothingIsCreated() {
        ClusterBlueprint spec = withShm(Specs.slurm(List.of("gpu-001", "gpu-002")), 501);

        assertThatThrownBy(() -> driver.provision(spec))
                .isInstanceOf(DriverFailedException.class)
                .hasMessageContaining("cluster.sharedMemoryGi: 501 GiB")
                .hasMessageContaining("gpu-001 (RealMemory=512000 MiB), gpu-002 (RealMemory=512000 MiB)")
                .satisfies(ex ->
                        assertThat(((DriverFailedException) ex).retryable()).isFalse());

        String name = spec.ref().name();
        assertThat(shown("reservation", name)).contains("not found").doesNotContain("ReservationName=");
        assertThat(shown("partition", name)).contains("not found").doesNotContain("PartitionName=");
        assertThat(slurm.run("sacctmgr", "-n", "-P", "show", "account", spec.tenant(), "format=account")
                        .stdout())
                .isBlank();
    }

    @Test
    void sharedMemoryEqualToTheNodesRealMemoryIsProvisioned() {
        ClusterBlueprint spec = withShm(Specs.slurm(List.of("gpu-003")), 500);

        assertThat(driver.provision(spec).nodes()).containsExactly("gpu-003");

        assertThat(slurm.run("scontrol", "show", "reservation", spec.ref().name(), "-o")
                        .stdout())
                .contains(spec.ref().name());
        driver.teardown(spec.ref());
    }

    /** Runs a one-task job in the started reservation; its output lines. */
    private List<String> job(String script) {
        String name = started.ref().name();
        // bounded generously: under load the job may wait for the backfill scheduler's next pass
        SlurmCluster.Result job = slurm.run(
                Duration.ofMinutes(3),
                "srun",
                "--account=" + started.tenant(),
                "--partition=" + name,
                "--reservation=" + name,
                "--nodes=1",
                "--ntasks=1",
                "--time=1",
                "sh",
                "-c",
                script);
        assertThat(job.exitCode()).as(job.stderr()).isZero();
        return job.stdout()
                .lines()
                .map(String::strip)
                .filter(line -> !line.isEmpty())
                .toList();
    }

    private ProvisionedCluster provisionStartedNow(SlurmDriver sizing, int gi) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        for (String node : JOB_NODES) {
            ClusterBlueprint asked =
                    withShm(Specs.slurm(Specs.newTenant(), List.of(node), now, now.plus(1, ChronoUnit.HOURS)), gi);
            try {
                started = asked;
                return sizing.provision(asked);
            } catch (NodesUnavailableException busy) {
                sizing.teardown(asked.ref());
                started = null;
            }
        }
        throw new IllegalStateException("No node of " + JOB_NODES + " is free for the next hour");
    }

    private String shown(String kind, String name) {
        SlurmCluster.Result result = slurm.run("scontrol", "show", kind, name, "-o");
        return result.stdout() + result.stderr();
    }

    private static ClusterBlueprint withShm(ClusterBlueprint s, int gi) {
        return new ClusterBlueprint(
                s.reservationId(),
                s.tenant(),
                s.project(),
                s.nodes(),
                s.gpusPerNode(),
                s.startsAt(),
                s.endsAt(),
                s.orchestrator(),
                s.cudaDriver(),
                gi,
                s.volumes(),
                s.sshPublicKeys());
    }
}
