package dev.allot.provisioning.driver.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.DriverTimeoutException;
import dev.allot.provisioning.driver.NodesUnavailableException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How commands reach Slurm, without Slurm: the prefix stands in for {@code ssh host}. */
class SlurmCommandsTests {

    @Test
    void everyCommandRunsBehindThePrefixWithItsEnvironmentOnTheCommandLine() {
        SlurmCommands commands = new SlurmCommands(
                List.of("bash", "-c", "echo \"$@\"", "remote"), "/etc/slurm/x.conf", Duration.ofSeconds(10));

        SlurmCommands.Result result = commands.run("scontrol", "show", "reservation", "r1");

        assertThat(result.ok()).isTrue();
        assertThat(result.stdout().strip())
                .isEqualTo("env SLURM_TIME_FORMAT=%s SLURM_CONF=/etc/slurm/x.conf scontrol show reservation r1");
    }

    @Test
    void aCommandThatHangsIsKilledAtTheTimeout() {
        SlurmCommands commands =
                new SlurmCommands(List.of("bash", "-c", "sleep 30", "remote"), null, Duration.ofMillis(300));

        assertThatThrownBy(() -> commands.run("scontrol", "ping"))
                .isInstanceOf(DriverTimeoutException.class)
                .hasMessageContaining("scontrol ping");
    }

    @Test
    void aMissingProgramIsAPermanentFailure() {
        SlurmCommands commands = new SlurmCommands(List.of("/nonexistent/ssh"), null, Duration.ofSeconds(5));

        assertThatThrownBy(() -> commands.run("scontrol", "ping"))
                .isInstanceOf(DriverFailedException.class)
                .satisfies(ex ->
                        assertThat(((DriverFailedException) ex).retryable()).isFalse());
    }

    @Test
    void anUnreachableControllerOrAPartitionStillInUseIsRetryableAndAnOverlapIsAboutNodes() {
        SlurmErrors errors = new SlurmErrors("h100");

        assertThat(errors.failed(
                                "scontrol show reservation",
                                new SlurmCommands.Result(
                                        1,
                                        "",
                                        "slurm_load_reservations error: Unable to contact slurm controller (connect failure)",
                                        Duration.ZERO),
                                List.of())
                        .retryable())
                .isTrue();
        assertThat(errors.failed(
                        "scontrol create reservation",
                        new SlurmCommands.Result(
                                1,
                                "",
                                "Error creating the reservation: Requested reservation overlaps with another reservation",
                                Duration.ZERO),
                        List.of("gpu-001")))
                .isInstanceOf(NodesUnavailableException.class);
        assertThat(errors.failed(
                                "scontrol delete partition",
                                new SlurmCommands.Result(
                                        1, "", "delete_partition PartitionName=p1: Partition is in use", Duration.ZERO),
                                List.of())
                        .retryable())
                .isTrue();
    }
}
