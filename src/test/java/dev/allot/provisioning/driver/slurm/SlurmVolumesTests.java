package dev.allot.provisioning.driver.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.booking.spec.ClusterSpec.Orchestrator;
import dev.allot.provisioning.Specs;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.DriverProperties.SlurmPool;
import dev.allot.provisioning.driver.NodesUnavailableException;
import dev.allot.provisioning.driver.ProvisionedCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Volumes of a Slurm pool against the real daemons: directories under {@code slurm.volume-root} (a folder of this
 * host, which every test node shares), written by a job in the reservation, removed at teardown unless retained.
 */
@ExtendWith(SlurmCluster.class)
class SlurmVolumesTests {

    /** Nodes whose slurmd runs jobs; the first free one for the next hour is used (other tests share the cluster). */
    private static final List<String> JOB_NODES = List.of("gpu-021", "gpu-019", "gpu-017", "gpu-005", "gpu-003");

    private static final Path ROOT = SlurmCluster.volumeRoot();

    private SlurmCluster slurm;

    private SlurmDriver driver;

    private @Nullable ClusterBlueprint spec;

    @BeforeEach
    void driver(SlurmCluster slurm) throws IOException {
        this.slurm = slurm;
        this.driver = SlurmDriver.create(
                "slurm-test",
                new SlurmPool(
                        List.of(),
                        slurm.slurmConf(),
                        "login.test",
                        ZoneId.systemDefault(),
                        Duration.ofSeconds(30),
                        ROOT,
                        "users"));
    }

    @AfterEach
    void teardown() {
        if (spec != null) {
            driver.teardown(spec.ref());
            driver.removeVolumes(
                    spec.ref(),
                    spec.volumes().stream().map(ClusterBlueprint.Volume::name).toList());
        }
    }

    @Test
    void aJobInTheReservationWritesIntoItsVolumesAndTeardownRemovesAllButTheRetainedOne() throws IOException {
        ProvisionedCluster cluster = provisionStartedNow(
                List.of(new ClusterBlueprint.Volume("scratch", 1), new ClusterBlueprint.Volume("results", 1)));
        String name = spec.ref().name();
        Path scratch = ROOT.resolve(name).resolve("scratch");
        Path results = ROOT.resolve(name).resolve("results");

        assertThat(cluster.volumes())
                .extracting(v -> v.location())
                .containsExactly(scratch.toString(), results.toString());
        assertThat(cluster.volumes().getFirst().detail()).isEqualTo("root:users drwxrws---");
        assertThat(cluster.volumes().getFirst().seeWith()).isEqualTo("ls -ld " + scratch);
        assertThat(slurm.run("stat", "-c", "%a %G", ROOT.resolve(name).toString())
                        .stdout()
                        .strip())
                .isEqualTo("711 root");

        slurm.run("sacctmgr", "-i", "add", "user", "root", "Account=" + spec.tenant());
        String node = spec.nodes().getFirst();
        SlurmCluster.Result job = slurm.run(
                "srun",
                "--account=" + spec.tenant(),
                "--partition=" + name,
                "--reservation=" + name,
                "--nodelist=" + node,
                "--nodes=1",
                "--ntasks=1",
                "--time=1",
                "sh",
                "-c",
                "echo written-by-$SLURM_JOB_ID-on-$SLURMD_NODENAME > " + scratch + "/out && cp " + scratch + "/out "
                        + results + "/out");

        assertThat(job.exitCode()).as(job.stderr()).isZero();
        assertThat(Files.readString(scratch.resolve("out")))
                .startsWith("written-by-")
                .contains("-on-" + node);
        assertThat(Files.readString(results.resolve("out"))).startsWith("written-by-");

        driver.teardown(spec.ref());
        driver.removeVolumes(spec.ref(), List.of("scratch"));

        assertThat(scratch).doesNotExist();
        assertThat(results.resolve("out")).exists();
        driver.removeVolumes(spec.ref(), List.of("results"));
        assertThat(ROOT.resolve(name)).doesNotExist();
        spec = null;
    }

    @Test
    void usageCountsBytesOnDiskInTheVolumeAndNeverWhatASymbolicLinkPointsTo() throws IOException {
        provisionFarAhead(List.of(new ClusterBlueprint.Volume("data", 1)));
        Path data = ROOT.resolve(spec.ref().name()).resolve("data");
        Path outside = Files.write(ROOT.resolve("outside-" + UUID.randomUUID()), new byte[8 << 20]);
        Files.createSymbolicLink(data.resolve("link"), outside);
        Files.createSymbolicLink(data.resolve("dir-link"), ROOT);
        Files.createDirectories(data.resolve("sub"));
        Files.write(data.resolve("sub/file"), new byte[3 << 20]);

        long used = driver.volumeUsage(spec.ref(), "data").orElseThrow();

        assertThat(used).isGreaterThanOrEqualTo(3L << 20).isLessThan(4L << 20);
        driver.removeVolumes(spec.ref(), List.of("data"));
        assertThat(outside).exists();
        Files.delete(outside);
    }

    @Test
    void aPoolWithoutAVolumeRootRefusesVolumesBeforeMakingAnything() {
        SlurmDriver noRoot = slurm.driver();
        ClusterBlueprint asked =
                withVolumes(Specs.slurm(List.of("gpu-004")), List.of(new ClusterBlueprint.Volume("data", 1)));

        assertThatThrownBy(() -> noRoot.provision(asked))
                .isInstanceOf(DriverFailedException.class)
                .hasMessageContaining("slurm.volume-root")
                .satisfies(ex ->
                        assertThat(((DriverFailedException) ex).retryable()).isFalse());
        assertThat(slurm.run("scontrol", "show", "reservation", asked.ref().name())
                        .exitCode())
                .isNotZero();
    }

    @Test
    void aVolumeRootMustBeAnAbsoluteNormalizedPath() {
        assertThatThrownBy(() -> new SlurmPool(List.of(), null, null, null, null, Path.of("/shared/../etc"), null))
                .hasMessageContaining("slurm.volume-root");
        assertThatThrownBy(() -> new SlurmPool(List.of(), null, null, null, null, Path.of("shared"), null))
                .hasMessageContaining("slurm.volume-root");
        assertThatThrownBy(() -> new ClusterBlueprint.Volume("../etc", 1)).isInstanceOf(IllegalArgumentException.class);
    }

    private ProvisionedCluster provisionStartedNow(List<ClusterBlueprint.Volume> volumes) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        for (String node : JOB_NODES) {
            ClusterBlueprint asked = withVolumes(
                    Specs.slurm(Specs.newTenant(), List.of(node), now, now.plus(1, ChronoUnit.HOURS)), volumes);
            try {
                spec = asked;
                return driver.provision(asked);
            } catch (NodesUnavailableException busy) {
                driver.teardown(asked.ref());
                driver.removeVolumes(
                        asked.ref(),
                        volumes.stream().map(ClusterBlueprint.Volume::name).toList());
                spec = null;
            }
        }
        throw new IllegalStateException("No node of " + JOB_NODES + " is free for the next hour");
    }

    private ProvisionedCluster provisionFarAhead(List<ClusterBlueprint.Volume> volumes) {
        spec = withVolumes(Specs.slurm(List.of("gpu-004")), volumes);
        return driver.provision(spec);
    }

    private static ClusterBlueprint withVolumes(ClusterBlueprint s, List<ClusterBlueprint.Volume> volumes) {
        return new ClusterBlueprint(
                s.reservationId(),
                s.tenant(),
                s.project(),
                s.nodes(),
                s.gpusPerNode(),
                s.startsAt(),
                s.endsAt(),
                Orchestrator.SLURM,
                s.cudaDriver(),
                s.sharedMemoryGi(),
                volumes,
                s.sshPublicKeys());
    }
}
