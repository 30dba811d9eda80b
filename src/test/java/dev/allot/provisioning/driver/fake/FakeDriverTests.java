package dev.allot.provisioning.driver.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.booking.spec.ClusterSpec.Orchestrator;
import dev.allot.provisioning.Specs;
import dev.allot.provisioning.checks.DcgmDiagOutput;
import dev.allot.provisioning.checks.Verdict;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterStatus;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.HealthCheckJob;
import dev.allot.provisioning.driver.HealthCheckKind;
import dev.allot.provisioning.driver.NodesUnavailableException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;

class FakeDriverTests {

    private final FakeDriver driver = new FakeDriver(Duration.ZERO);

    private final ClusterBlueprint spec = Specs.kubernetes(List.of("gpu-001", "gpu-002"));

    @Test
    void provisioningTwiceAndTearingDownTwiceLeavesNothingBehind() {
        driver.provision(spec);
        driver.provision(spec);
        assertThat(driver.status(spec.ref()).phase()).isEqualTo(ClusterStatus.Phase.READY);

        driver.teardown(spec.ref());
        driver.teardown(spec.ref());

        assertThat(driver.clusters()).isEmpty();
        assertThat(driver.status(spec.ref())).isEqualTo(ClusterStatus.absent(spec.ref()));
    }

    @Test
    void injectedFailuresFailTheNextCallsWithoutChangingAnything() {
        driver.failNext(2);

        assertThatThrownBy(() -> driver.provision(spec))
                .isInstanceOf(DriverFailedException.class)
                .satisfies(ex ->
                        assertThat(((DriverFailedException) ex).retryable()).isTrue());
        assertThatThrownBy(() -> driver.provision(spec)).isInstanceOf(DriverFailedException.class);
        assertThat(driver.clusters()).isEmpty();

        assertThat(driver.provision(spec).nodes()).containsExactly("gpu-001", "gpu-002");
        assertThat(driver.calls()).hasSize(3);
    }

    @Test
    void aLostReplyFailsTheCallAfterTheWorkIsDone() {
        driver.loseNextReplies(1);

        assertThatThrownBy(() -> driver.provision(spec))
                .isInstanceOf(DriverFailedException.class)
                .hasMessageContaining("lost reply");

        assertThat(driver.clusters()).containsKey(spec.reservationId());
    }

    @Test
    void aCustomFaultIsThrownAsGiven() {
        driver.failNext(1, () -> new NodesUnavailableException(List.of("gpu-001"), "injected"));

        assertThatThrownBy(() -> driver.provision(spec)).isInstanceOf(NodesUnavailableException.class);
    }

    @Test
    void nodesHeldByAnOverlappingClusterAreRefusedLikeTheRealDrivers() {
        driver.provision(spec);
        ClusterBlueprint overlapping = Specs.spec(
                Orchestrator.SLURM,
                List.of("gpu-002", "gpu-003"),
                spec.startsAt().plus(1, ChronoUnit.HOURS),
                List.of());
        ClusterBlueprint later = Specs.spec(Orchestrator.SLURM, List.of("gpu-002"), spec.endsAt(), List.of());

        assertThatThrownBy(() -> driver.provision(overlapping))
                .isInstanceOf(NodesUnavailableException.class)
                .satisfies(ex ->
                        assertThat(((NodesUnavailableException) ex).nodes()).containsExactly("gpu-002"));
        assertThat(driver.provision(later).nodes()).containsExactly("gpu-002");
    }

    @Test
    void healthChecksPrintWhatTheRealToolsPrintHealthyUnlessANodeIsMarkedUnhealthy() {
        driver.failHealthChecksOn("gpu-002");
        driver.failHealthChecksUntilRebootOn("gpu-003");

        assertThat(DcgmDiagOutput.judge(check("gpu-001", HealthCheckKind.DCGM_DIAG), 1)
                        .passed())
                .isTrue();
        assertThat(DcgmDiagOutput.judge(check("gpu-002", HealthCheckKind.DCGM_DIAG), 1)
                        .fault())
                .isEqualTo(Verdict.Fault.HARDWARE);
        assertThat(DcgmDiagOutput.judge(check("gpu-003", HealthCheckKind.DCGM_DIAG), 1)
                        .fault())
                .isEqualTo(Verdict.Fault.SOFTWARE);
        driver.reboot(spec.ref(), "gpu-003");
        assertThat(DcgmDiagOutput.judge(check("gpu-003", HealthCheckKind.DCGM_DIAG), 1)
                        .passed())
                .isTrue();
        assertThat(driver.rebooted()).containsExactly("gpu-003");
    }

    private String check(String node, HealthCheckKind kind) {
        return driver.runHealthCheck(
                        new HealthCheckJob(spec.ref(), node, kind, List.of("fake"), 8, Duration.ofMinutes(1)))
                .output();
    }

    @Test
    void nodesMoveInAndOut() {
        driver.provision(spec);

        assertThat(driver.addNodes(spec.ref(), List.of("gpu-003")).nodes())
                .containsExactly("gpu-001", "gpu-002", "gpu-003");
        assertThat(driver.removeNodes(spec.ref(), List.of("gpu-001")).nodes()).containsExactly("gpu-002", "gpu-003");
    }
}
