package dev.allot.provisioning.driver.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.booking.spec.ClusterSpec.Orchestrator;
import dev.allot.provisioning.Specs;
import dev.allot.provisioning.driver.BuildStep;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.NodesUnavailableException;
import dev.allot.provisioning.driver.ProvisionedCluster;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The booked CUDA driver pinned on a real Slurm cluster (see {@link SlurmCluster}; its GPU nodes carry the feature
 * {@code cuda550}): the reservation carries {@code Features=cuda550}, a job in it runs on nodes with that feature,
 * a job asking for another driver finds no node there, and nodes without the feature are refused before anything
 * is created.
 */
@ExtendWith(SlurmCluster.class)
class SlurmCudaConstraintTests {

    private SlurmCluster slurm;

    private SlurmDriver driver;

    private ClusterBlueprint spec;

    @BeforeEach
    void driver(SlurmCluster slurm) {
        this.slurm = slurm;
        this.driver = slurm.driver();
    }

    @AfterEach
    void teardown() {
        if (spec != null) {
            driver.teardown(spec.ref());
        }
    }

    @Test
    void aJobInTheReservationSeesItsCudaConstraintAndAnotherDriverFindsNoNode() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        spec = Specs.slurm(Specs.newTenant(), List.of("gpu-003"), now, now.plus(1, ChronoUnit.HOURS));
        String name = spec.ref().name();

        ProvisionedCluster cluster = driver.provision(spec);

        assertThat(SlurmRecord.parse(slurm.run("scontrol", "show", "reservation", name, "--oneliner")
                                .stdout())
                        .get("Features"))
                .isEqualTo("cuda550");
        assertThat(cluster.steps())
                .extracting(BuildStep::line)
                .contains(
                        "Every node carries Slurm feature cuda550 for CUDA driver 550.54.15: gpu-003 (see: scontrol show "
                                + "node gpu-003).")
                .anySatisfy(line -> assertThat(line)
                        .startsWith("Slurm reservation " + name + " created on gpu-003")
                        .contains("Features=cuda550", "(see: scontrol show reservation " + name + ")"));
        // a tenant user of the account (here root, added as a tenant admin would add a user)
        assertThat(slurm.run("sacctmgr", "-i", "add", "user", "root", "account=" + spec.tenant())
                        .exitCode())
                .isZero();

        // bounded generously: under load the job may wait for the backfill scheduler's next pass
        SlurmCluster.Result job = slurm.run(
                Duration.ofMinutes(3),
                "srun",
                "--account=" + spec.tenant(),
                "--partition=" + name,
                "--reservation=" + name,
                "--nodes=1",
                "--time=1",
                "bash",
                "-c",
                "scontrol show job $SLURM_JOB_ID --oneliner; scontrol show node $SLURMD_NODENAME --oneliner; "
                        + "scontrol show reservation " + name + " --oneliner");

        assertThat(job.exitCode()).as(job.stderr()).isZero();
        List<SlurmRecord> seen = job.stdout()
                .lines()
                .filter(line -> !line.isBlank())
                .map(SlurmRecord::parse)
                .toList();
        assertThat(seen).hasSize(3);
        assertThat(seen.get(0).get("Reservation")).isEqualTo(name);
        assertThat(seen.get(1).get("NodeName")).isEqualTo("gpu-003");
        assertThat(seen.get(1).get("ActiveFeatures").split(",")).contains("cuda550");
        assertThat(seen.get(2).get("Features")).isEqualTo("cuda550");

        SlurmCluster.Result otherDriver = slurm.run(
                "srun",
                "--account=" + spec.tenant(),
                "--partition=" + name,
                "--reservation=" + name,
                "--nodes=1",
                "--time=1",
                "--immediate=5",
                "--constraint=cuda535",
                "true");
        assertThat(otherDriver.exitCode()).isNotZero();
        // no node offers it ("Invalid feature specification"), or none of the reservation's does
        assertThat(otherDriver.stderr())
                .containsAnyOf("Invalid feature specification", "Requested node configuration is not available");
    }

    @Test
    void nodesWithoutTheBookedDriversFeatureAreRefusedBeforeAnythingIsCreated() {
        ClusterBlueprint asked = Specs.slurm(List.of("gpu-014"));
        ClusterBlueprint other = new ClusterBlueprint(
                asked.reservationId(),
                asked.tenant(),
                asked.project(),
                asked.nodes(),
                asked.gpusPerNode(),
                asked.startsAt(),
                asked.endsAt(),
                Orchestrator.SLURM,
                "535.104.05",
                asked.sharedMemoryGi(),
                asked.volumes(),
                asked.sshPublicKeys());

        assertThatThrownBy(() -> driver.provision(other))
                .isInstanceOfSatisfying(NodesUnavailableException.class, ex -> {
                    assertThat(ex.nodes()).containsExactly("gpu-014");
                    assertThat(ex.retryable()).isFalse();
                    assertThat(ex.getMessage())
                            .contains("Slurm node feature cuda535", "gpu-014 (AvailableFeatures=cuda550)");
                });
        assertThat(driver.reservation(other.ref())).isEmpty();
        assertThat(driver.partition(other.ref())).isEmpty();
        assertThat(driver.accountExists(other.tenant())).isFalse();
    }

    @Test
    void aReplacementNodeWithoutTheReservationsFeatureIsRefused() {
        spec = Specs.slurm(List.of("gpu-014"));
        driver.provision(spec);
        // gpu-015 points at a closed port (DOWN): no other test runs jobs on it
        slurm.run("scontrol", "update", "NodeName=gpu-015", "AvailableFeatures=cuda535", "ActiveFeatures=cuda535");
        try {
            assertThatThrownBy(() -> driver.addNodes(spec.ref(), List.of("gpu-015")))
                    .isInstanceOfSatisfying(NodesUnavailableException.class, ex -> {
                        assertThat(ex.nodes()).containsExactly("gpu-015");
                        assertThat(ex.getMessage())
                                .contains("needs Slurm node feature cuda550", "gpu-015 (AvailableFeatures=cuda535)");
                    });
            assertThat(driver.reservation(spec.ref()).orElseThrow().nodes()).containsExactly("gpu-014");
        } finally {
            slurm.run("scontrol", "update", "NodeName=gpu-015", "AvailableFeatures=cuda550", "ActiveFeatures=cuda550");
        }
    }
}
