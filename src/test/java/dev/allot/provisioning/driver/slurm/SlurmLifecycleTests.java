package dev.allot.provisioning.driver.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.provisioning.LifecycleTest;
import dev.allot.support.Api;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The whole lifecycle against a real slurmctld with slurmdbd ({@link SlurmCluster}): a pool configured with the
 * Slurm driver, a booking on two of its nodes, and what Slurm holds before, during and after the window, as
 * {@code scontrol show} and {@code sacctmgr show} tell an administrator.
 * Its application context (with the pool configured for it) serves no other class and is closed afterwards.
 */
@ExtendWith(SlurmCluster.class)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class SlurmLifecycleTests extends LifecycleTest {

    private static final String POOL =
            "slurm-e2e-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 30, 1L << 35), 36);

    private static final List<String> NODES = List.of("gpu-005", "gpu-006");

    private static SlurmCluster slurm;

    @BeforeAll
    static void cluster(SlurmCluster cluster) {
        slurm = cluster;
    }

    /**
     * The acceptance check before handover runs as a real srun job on each node; the nodes have no GPUs, so the job
     * runs the stand-in executable printing a recorded healthy nvidia-smi output (as in {@link SlurmAcceptanceTests}).
     */
    @DynamicPropertySource
    static void slurmPool(DynamicPropertyRegistry registry) throws IOException {
        Path outputs = Path.of("src/test/resources/health-outputs").toAbsolutePath();
        Path recordings = SlurmCluster.newRecordings("lifecycle");
        for (String node : NODES) {
            Files.copy(outputs.resolve("nvidia-smi-h100-healthy.txt"), recordings.resolve(node + ".NVIDIA_SMI"));
        }
        SlurmCluster.standInPool(registry, POOL, () -> slurm.slurmConf(), recordings, "NVIDIA_SMI");
        registry.add("allot.provisioning.health.check-timeout", () -> "60s");
    }

    @Test
    void aSlurmBookingBecomesAnAccountPartitionAndReservationOnTheRealSlurmctldAndIsGoneAfterItsWindow() {
        Setup s = namedPool(POOL, NODES);
        Instant start = hour(2);
        Instant end = hour(3);
        String id = bookAndAwaitSchedule(s, 16, start, end, "SLURM");
        String name = "allot-" + id;

        runDueAt(start.minus(Duration.ofMinutes(15)));

        JsonNode ready = cluster(s, id);
        assertThat(ready.get("state").asString()).as(ready.toString()).isEqualTo("READY");
        assertThat(ready.get("reservationStatus").asString()).isEqualTo("ACTIVE");
        JsonNode endpoints = ready.get("endpoints");
        assertThat(endpoints.get("sshHost").asString()).isEqualTo("login.test");
        assertThat(endpoints.get("slurmAccount").asString()).isEqualTo(s.tenant());
        assertThat(endpoints.get("slurmPartition").asString()).isEqualTo(name);
        assertThat(endpoints.get("slurmReservation").asString()).isEqualTo(name);
        assertThat(ready.get("nodes").valueStream().map(n -> n.get("hostname").asString()))
                .containsExactlyElementsOf(NODES);
        assertThat(ready.get("nodes").valueStream().map(n -> n.get("state").asString()))
                .allMatch(state -> !state.isBlank());
        SlurmRecord reservation = SlurmRecord.parse(
                slurm.run("scontrol", "show", "reservation", name, "--oneliner").stdout());
        assertThat(reservation.get("Nodes")).isEqualTo("gpu-[005-006]");
        assertThat(reservation.get("Accounts")).isEqualTo(s.tenant());
        assertThat(Instant.ofEpochSecond(Long.parseLong(reservation.get("StartTime"))))
                .isEqualTo(start);
        assertThat(Instant.ofEpochSecond(Long.parseLong(reservation.get("EndTime"))))
                .isEqualTo(end);
        SlurmRecord partition = SlurmRecord.parse(
                slurm.run("scontrol", "show", "partition", name, "--oneliner").stdout());
        assertThat(partition.get("AllowAccounts")).isEqualTo(s.tenant());
        assertThat(slurm.run("sacctmgr", "-n", "-P", "show", "account", s.tenant(), "format=account")
                        .stdout()
                        .strip())
                .isEqualTo(s.tenant());
        Path volume = SlurmCluster.volumeRoot().resolve(name).resolve("data");
        assertThat(volume).isDirectory();
        assertThat(ready.toString()).contains(volume + " (ls -ld " + volume);
        // the timeline states what the driver did on the controller, each with where to see it, and nothing else
        List<String> details = ready.get("timeline")
                .valueStream()
                .map(e -> e.get("detail").asString())
                .toList();
        assertThat(details)
                .contains(
                        "Every node carries Slurm feature cuda550 for CUDA driver 550.54: gpu-005,gpu-006"
                                + " (see: scontrol show node gpu-005,gpu-006).",
                        "Slurm partition " + name + " created on gpu-005,gpu-006, AllowAccounts=" + s.tenant()
                                + " (see: scontrol show partition " + name + ").")
                .anySatisfy(line -> assertThat(line)
                        .isEqualTo("Slurm reservation " + name + " created on gpu-005,gpu-006"
                                + " for account " + s.tenant() + " until " + end
                                + ", Features=cuda550 (see: scontrol show reservation "
                                + name + ")."));
        assertThat(reservation.get("Features")).isEqualTo("cuda550");
        assertThat(String.join("\n", details)).doesNotContain("selected on every node");
        Api.Response kubeconfig = api.get(path(s, id) + "/cluster/kubeconfig", s.token());
        assertThat(kubeconfig.status()).isEqualTo(404);
        assertThat(kubeconfig.json().get("detail").asString()).contains("log in to login.test");

        runDueAt(end);

        JsonNode deleted = cluster(s, id);
        System.out.printf(
                "Lifecycle on the %s: provision step %d ms, teardown step %d ms%n",
                "real slurmctld",
                took(deleted, "provision").toMillis(),
                took(deleted, "teardown").toMillis());
        assertThat(deleted.get("state").asString()).as(deleted.toString()).isEqualTo("DELETED");
        assertThat(deleted.get("reservationStatus").asString()).isEqualTo("COMPLETED");
        assertThat(slurm.run("scontrol", "show", "reservation", name).exitCode())
                .isNotZero();
        assertThat(slurm.run("scontrol", "show", "partition", name).exitCode()).isNotZero();
        assertThat(volume).doesNotExist();
        assertThat(deleted.toString()).contains("Volumes removed: data.");
    }
}
