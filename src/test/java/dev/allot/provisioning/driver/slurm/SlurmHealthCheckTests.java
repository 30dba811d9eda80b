package dev.allot.provisioning.driver.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.provisioning.Specs;
import dev.allot.provisioning.checks.CheckOutputs;
import dev.allot.provisioning.checks.Expectation;
import dev.allot.provisioning.checks.HealthThresholds;
import dev.allot.provisioning.checks.Verdict;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.HealthCheckJob;
import dev.allot.provisioning.driver.HealthCheckKind;
import dev.allot.provisioning.driver.HealthCheckResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Health checks as real Slurm jobs on the real slurmctld and the fake GPU nodes' own slurmds ({@link SlurmCluster}):
 * {@code srun} pinned to the node in the cluster's partition, its output back through srun, parsed and judged.
 * The nodes have no GPUs, so the job runs a stand-in executable that prints a recorded output of the real tool
 * (src/test/resources/health-outputs) chosen by the node the job landed on.
 */
@ExtendWith(SlurmCluster.class)
class SlurmHealthCheckTests {

    private static final Path OUTPUTS =
            Path.of("src/test/resources/health-outputs").toAbsolutePath();

    private static final Expectation H100 = new Expectation(
            "H100", 8, 1, new HealthThresholds.GpuType(400, 150, Map.of("host_to_device_memcpy_ce", 40.0)));

    private SlurmCluster slurm;

    private SlurmDriver driver;

    private Path recordings;

    private ClusterBlueprint spec;

    @BeforeEach
    void driver(SlurmCluster slurm) throws IOException {
        this.slurm = slurm;
        this.driver = slurm.driver();
        this.recordings = SlurmCluster.newRecordings("recordings");
    }

    @AfterEach
    void tearDown() {
        if (spec != null) {
            driver.teardown(spec.ref());
        }
    }

    private void record(String node, HealthCheckKind kind, String fixture) throws IOException {
        Files.copy(
                OUTPUTS.resolve(fixture), recordings.resolve(node + "." + kind), StandardCopyOption.REPLACE_EXISTING);
    }

    private HealthCheckResult check(String node, HealthCheckKind kind, Duration timeout) {
        return driver.runHealthCheck(new HealthCheckJob(
                spec.ref(),
                node,
                kind,
                List.of("bash", SlurmCluster.standIn().toString(), recordings.toString(), kind.name()),
                8,
                timeout));
    }

    private static Verdict judge(HealthCheckResult result) {
        return CheckOutputs.judge(result.kind(), 1, result.exitCode(), result.output(), H100);
    }

    @Test
    void aCheckJobWithAStandInExecutableRunsOnTheNodeItIsPinnedToBeforeTheWindowAndIsJudged() throws IOException {
        spec = Specs.slurm(List.of("gpu-007", "gpu-008")); // a window far ahead: before handover
        driver.provision(spec);
        record("default", HealthCheckKind.NVIDIA_SMI, "nvidia-smi-h100-healthy.txt");
        record("gpu-008", HealthCheckKind.NVIDIA_SMI, "nvidia-smi-h100-ecc-xid79.txt");

        HealthCheckResult healthy = check("gpu-007", HealthCheckKind.NVIDIA_SMI, Duration.ofSeconds(60));
        HealthCheckResult broken = check("gpu-008", HealthCheckKind.NVIDIA_SMI, Duration.ofSeconds(60));

        System.out.printf(
                "Slurm check job (srun, stand-in executable): %d ms and %d ms%n",
                healthy.took().toMillis(), broken.took().toMillis());
        assertThat(healthy.exitCode()).as(healthy.output()).isZero();
        assertThat(judge(healthy).passed()).as(healthy.output()).isTrue();
        Verdict verdict = judge(broken);
        assertThat(verdict.fault()).isEqualTo(Verdict.Fault.HARDWARE);
        assertThat(verdict.findings()).contains("GPU 3: 2 uncorrected ECC errors", "7 of 8 GPUs visible");
        // the jobs ran under the tenant's account, in the cluster's partition, each on its node
        assertThat(slurm.run("sacctmgr", "-n", "-P", "show", "association", "account=" + spec.tenant(), "format=user")
                        .stdout())
                .contains("root");
    }

    @Test
    void insideAStartedWindowTheCheckRunsInTheClustersReservationAndAllKindsAreParsed() throws IOException {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        spec = Specs.slurm(Specs.newTenant(), List.of("gpu-007"), now, now.plus(1, ChronoUnit.HOURS));
        driver.provision(spec);
        record("gpu-007", HealthCheckKind.DCGM_DIAG, "dcgm-diag-r2-memory-fail.json");
        record("gpu-007", HealthCheckKind.NCCL_ALL_REDUCE, "nccl-all-reduce-h100-8.txt");
        record("gpu-007", HealthCheckKind.GPU_BURN, "gpu-burn-ok.txt");
        record("gpu-007", HealthCheckKind.NVBANDWIDTH, "nvbandwidth-h100.txt");

        assertThat(judge(check("gpu-007", HealthCheckKind.DCGM_DIAG, Duration.ofSeconds(60)))
                        .fault())
                .isEqualTo(Verdict.Fault.HARDWARE);
        assertThat(judge(check("gpu-007", HealthCheckKind.NCCL_ALL_REDUCE, Duration.ofSeconds(60)))
                        .passed())
                .isTrue();
        assertThat(judge(check("gpu-007", HealthCheckKind.GPU_BURN, Duration.ofSeconds(60)))
                        .passed())
                .isTrue();
        assertThat(judge(check("gpu-007", HealthCheckKind.NVBANDWIDTH, Duration.ofSeconds(60)))
                        .summary())
                .contains("host_to_device_memcpy_ce: 26.11 GB/s is below the H100 threshold");
    }

    @Test
    void aHangingCheckIsCancelledAtItsTimeout() throws IOException {
        spec = Specs.slurm(List.of("gpu-008"));
        driver.provision(spec);
        Files.writeString(recordings.resolve("gpu-008.GPU_BURN"), "@@ hang\n");

        HealthCheckResult hung = check("gpu-008", HealthCheckKind.GPU_BURN, Duration.ofSeconds(5));

        assertThat(hung.timedOut()).isTrue();
        String job = "allot-check-" + spec.reservationId().toString().substring(0, 8) + "-gpu-008";
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> slurm.run("squeue", "-h", "--name=" + job).stdout().isBlank());
    }

    @Test
    void aNodeSlurmReportsDownIsUnreachableWithoutAJob() {
        spec = Specs.slurm(List.of("gpu-012")); // points at a closed port: DOWN
        driver.provision(spec);

        HealthCheckResult result = check("gpu-012", HealthCheckKind.NVIDIA_SMI, Duration.ofSeconds(30));

        assertThat(result.unreachable()).as(result.output()).isTrue();
        assertThat(result.output()).startsWith("Slurm reports gpu-012 ");
    }

    @Test
    void aRebootGoesThroughScontrolAndTheNodeIsBackOnlyOnceItsSlurmdHasStartedAgain() {
        spec = Specs.slurm(List.of("gpu-008"));
        driver.provision(spec);
        String startedBefore = SlurmRecord.parse(slurm.run("scontrol", "show", "node", "gpu-008", "--oneliner")
                        .stdout())
                .get("SlurmdStartTime");

        ClusterDriver.Reboot reboot = driver.reboot(spec.ref(), "gpu-008");
        assertThat(reboot.done()).isEqualTo("scontrol reboot ASAP nextstate=RESUME gpu-008");
        assertThat(reboot.mark()).isEqualTo(startedBefore).matches("\\d+");

        SlurmRecord node = SlurmRecord.parse(
                slurm.run("scontrol", "show", "node", "gpu-008", "--oneliner").stdout());
        assertThat(node.get("State")).contains("REBOOT");
        assertThat(node.get("Reason"))
                .startsWith("allot-remediation-" + spec.ref().name());
        assertThat(driver.backFromReboot(spec.ref(), "gpu-008", reboot.mark())).isFalse();
        try {
            // Slurm shows the node idle again although it never restarted: not back
            slurm.run("scontrol", "cancel_reboot", "gpu-008");
            slurm.run("scontrol", "update", "NodeName=gpu-008", "State=RESUME");
            Awaitility.await()
                    .atMost(Duration.ofSeconds(120))
                    .until(() -> SlurmRecord.parse(slurm.run("scontrol", "show", "node", "gpu-008", "--oneliner")
                                    .stdout())
                            .get("State")
                            .equals("IDLE"));
            assertThat(driver.backFromReboot(spec.ref(), "gpu-008", reboot.mark()))
                    .isFalse();
        } finally {
            // its slurmd starts again, as after a real reboot (the test host does not reboot): back
            slurm.backInService("gpu-008");
        }
        assertThat(driver.backFromReboot(spec.ref(), "gpu-008", reboot.mark())).isTrue();
    }
}
