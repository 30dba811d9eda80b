package dev.allot.provisioning.driver.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.provisioning.Specs;
import dev.allot.provisioning.driver.ClusterAccess;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterStatus;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Slurm adapter against a real slurmctld with slurmdbd (see {@link SlurmCluster}). Every test checks with
 * {@code scontrol show} and {@code sacctmgr show}, as an administrator would, what Slurm holds.
 */
@ExtendWith(SlurmCluster.class)
class SlurmDriverTests {

    private SlurmCluster slurm;

    private SlurmDriver driver;

    @BeforeEach
    void driver(SlurmCluster slurm) {
        this.slurm = slurm;
        this.driver = slurm.driver();
    }

    @Test
    void provisioningCreatesTheAccountAPartitionAndAReservationOnExactlyTheRequestedNodes() {
        ClusterBlueprint spec = Specs.slurm(List.of("gpu-001", "gpu-003", "gpu-004"));

        long started = System.nanoTime();
        ProvisionedCluster cluster = driver.provision(spec);
        System.out.printf("Slurm provision (new account): %d ms%n", (System.nanoTime() - started) / 1_000_000);

        String name = spec.ref().name();
        assertThat(cluster.nodes()).containsExactly("gpu-001", "gpu-003", "gpu-004");
        assertThat(cluster.access()).isEqualTo(new ClusterAccess.Slurm("login.test", spec.tenant(), name, name));
        assertThat(slurm.run("sacctmgr", "-n", "-P", "show", "account", spec.tenant(), "format=account")
                        .stdout()
                        .strip())
                .isEqualTo(spec.tenant());
        SlurmRecord reservation = show("reservation", name);
        assertThat(hostnames(reservation.get("Nodes"))).containsExactly("gpu-001", "gpu-003", "gpu-004");
        assertThat(reservation.get("Accounts")).isEqualTo(spec.tenant());
        assertThat(Instant.ofEpochSecond(Long.parseLong(reservation.get("StartTime"))))
                .isEqualTo(spec.startsAt());
        assertThat(Instant.ofEpochSecond(Long.parseLong(reservation.get("EndTime"))))
                .isEqualTo(spec.endsAt());
        SlurmRecord partition = show("partition", name);
        assertThat(hostnames(partition.get("Nodes"))).containsExactly("gpu-001", "gpu-003", "gpu-004");
        assertThat(partition.get("AllowAccounts")).isEqualTo(spec.tenant());
        assertThat(partition.get("State")).isEqualTo("UP");
        assertThat(driver.status(spec.ref()).phase()).isEqualTo(ClusterStatus.Phase.READY);
        measureShowCommands(name);
        driver.teardown(spec.ref());
    }

    @Test
    void provisioningTwiceIsHarmlessAndReusesWhatExists() {
        ClusterBlueprint spec = Specs.slurm(List.of("gpu-002"));
        driver.provision(spec);
        String reservationBefore = slurm.run(
                        "scontrol", "show", "reservation", spec.ref().name(), "-o")
                .stdout();

        long started = System.nanoTime();
        ProvisionedCluster again = driver.provision(spec);
        System.out.printf("Slurm provision (everything exists): %d ms%n", (System.nanoTime() - started) / 1_000_000);

        assertThat(again.nodes()).containsExactly("gpu-002");
        assertThat(slurm.run("scontrol", "show", "reservation", spec.ref().name(), "-o")
                        .stdout())
                .isEqualTo(reservationBefore);
        assertThat(slurm.run("scontrol", "show", "reservation", "-o")
                        .stdout()
                        .lines()
                        .filter(line -> line.contains(spec.ref().name())))
                .hasSize(1);
        driver.teardown(spec.ref());
    }

    @Test
    void teardownRemovesTheReservationAndThePartitionAndMayBeRepeated() {
        ClusterBlueprint spec = Specs.slurm(List.of("gpu-005", "gpu-006"));
        driver.provision(spec);

        long started = System.nanoTime();
        driver.teardown(spec.ref());
        System.out.printf("Slurm teardown: %d ms%n", (System.nanoTime() - started) / 1_000_000);
        driver.teardown(spec.ref());

        assertThat(slurm.run("scontrol", "show", "reservation", spec.ref().name())
                                .stderr()
                        + slurm.run(
                                        "scontrol",
                                        "show",
                                        "reservation",
                                        spec.ref().name())
                                .stdout())
                .contains("not found");
        assertThat(slurm.run("scontrol", "show", "partition", spec.ref().name()).exitCode())
                .isNotZero();
        assertThat(driver.status(spec.ref())).isEqualTo(ClusterStatus.absent(spec.ref()));
    }

    @Test
    void slurmRefusesAReservationOverlappingAnotherOnTheSameNodesAndTheDriverSaysNodesUnavailable() {
        ClusterBlueprint first = Specs.slurm(List.of("gpu-007", "gpu-008"));
        driver.provision(first);
        ClusterBlueprint overlapping = Specs.slurm(
                Specs.newTenant(),
                List.of("gpu-008", "gpu-009"),
                first.startsAt().plus(1, ChronoUnit.HOURS),
                first.endsAt().plus(1, ChronoUnit.HOURS));

        assertThatThrownBy(() -> driver.provision(overlapping))
                .isInstanceOf(NodesUnavailableException.class)
                .hasMessageContaining("overlaps with another reservation")
                .satisfies(ex -> assertThat(((NodesUnavailableException) ex).retryable())
                        .as("held by another: retried")
                        .isTrue());

        assertThat(slurm.run(
                                "scontrol",
                                "show",
                                "reservation",
                                overlapping.ref().name())
                        .exitCode())
                .isNotZero();
        assertThat(slurm.run("scontrol", "show", "partition", overlapping.ref().name())
                        .exitCode())
                .isNotZero();
        driver.teardown(first.ref());
    }

    @Test
    void theSameNodesInTheFollowingWindowAreAccepted() {
        ClusterBlueprint first = Specs.slurm(List.of("gpu-010"));
        driver.provision(first);
        ClusterBlueprint next = Specs.slurm(
                Specs.newTenant(),
                List.of("gpu-010"),
                first.endsAt(),
                first.endsAt().plus(2, ChronoUnit.HOURS));

        assertThat(driver.provision(next).nodes()).containsExactly("gpu-010");

        driver.teardown(first.ref());
        driver.teardown(next.ref());
    }

    @Test
    void aWindowThatHasAlreadyBegunIsReservedFromNowToItsExactEnd() {
        Instant start = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
        ClusterBlueprint late =
                Specs.slurm(Specs.newTenant(), List.of("gpu-016"), start, start.plusSeconds(3 * 3600 + 17));

        driver.provision(late);
        driver.provision(late);

        SlurmRecord reservation = show("reservation", late.ref().name());
        assertThat(Instant.ofEpochSecond(Long.parseLong(reservation.get("EndTime"))))
                .isEqualTo(late.endsAt());
        assertThat(Instant.ofEpochSecond(Long.parseLong(reservation.get("StartTime"))))
                .isAfter(start);
        driver.teardown(late.ref());
    }

    @Test
    void provisioningAgainWithALaterEndExtendsTheReservation() {
        ClusterBlueprint spec = Specs.slurm(List.of("gpu-001"));
        driver.provision(spec);
        ClusterBlueprint extended = new ClusterBlueprint(
                spec.reservationId(),
                spec.tenant(),
                spec.project(),
                spec.nodes(),
                spec.gpusPerNode(),
                spec.startsAt(),
                spec.endsAt().plus(2, ChronoUnit.HOURS),
                spec.orchestrator(),
                spec.cudaDriver(),
                spec.sharedMemoryGi(),
                spec.volumes(),
                spec.sshPublicKeys());

        driver.provision(extended);

        SlurmRecord reservation = show("reservation", spec.ref().name());
        assertThat(Instant.ofEpochSecond(Long.parseLong(reservation.get("EndTime"))))
                .isEqualTo(extended.endsAt());
        assertThat(Instant.ofEpochSecond(Long.parseLong(reservation.get("StartTime"))))
                .isEqualTo(spec.startsAt());
        driver.teardown(spec.ref());
    }

    @Test
    void aNodeSlurmDoesNotKnowIsRefused() {
        assertThatThrownBy(() -> driver.provision(Specs.slurm(List.of("gpu-011", "gpu-999"))))
                .isInstanceOf(NodesUnavailableException.class);
    }

    @Test
    void onlyTheTenantsAccountMaySubmitToItsPartition() {
        String member = slurm.newUnixUser();
        ClusterBlueprint spec = SlurmLoginTests.withLogins(Specs.slurm(List.of("gpu-012")), List.of(member), List.of());
        driver.provision(spec);
        // another tenant's account, and a user of it (here root) trying the first tenant's partition and reservation
        String stranger = Specs.newTenant();
        slurm.run("sacctmgr", "-i", "add", "account", stranger);
        slurm.run("sacctmgr", "-i", "add", "user", "root", "Account=" + stranger);
        String name = spec.ref().name();

        SlurmCluster.Result refusedByPartition =
                slurm.run("sbatch", "--hold", "-A", stranger, "-p", name, "--wrap=true");
        SlurmCluster.Result refusedByReservation =
                slurm.run("sbatch", "--hold", "-A", stranger, "-p", "batch", "--reservation=" + name, "--wrap=true");
        // the driver associated the tenant's user with the account: no hand step
        SlurmCluster.Result accepted = slurm.runAs(
                member, "sbatch", "--hold", "-A", spec.tenant(), "-p", name, "--reservation=" + name, "--wrap=true");

        assertThat(refusedByPartition.exitCode())
                .as(refusedByPartition.stdout())
                .isNotZero();
        assertThat(refusedByPartition.stderr()).containsIgnoringCase("invalid account or account/partition");
        assertThat(refusedByReservation.exitCode())
                .as(refusedByReservation.stdout())
                .isNotZero();
        assertThat(refusedByReservation.stderr()).containsIgnoringCase("access denied to requested reservation");
        assertThat(accepted.exitCode()).as(accepted.stderr()).isZero();
        driver.teardown(spec.ref());
        assertThat(slurm.run("squeue", "-h", "-p", name).stdout()).isBlank();
        slurm.removeUser(member);
    }

    @Test
    void addingAndRemovingNodesMovesTheReservationAndThePartition() {
        ClusterBlueprint spec = Specs.slurm(List.of("gpu-013"));
        driver.provision(spec);

        assertThat(driver.addNodes(spec.ref(), List.of("gpu-014")).nodes())
                .containsExactlyInAnyOrder("gpu-013", "gpu-014");
        assertThat(hostnames(show("partition", spec.ref().name()).get("Nodes"))).containsExactly("gpu-013", "gpu-014");

        ClusterStatus shrunk = driver.removeNodes(spec.ref(), List.of("gpu-013"));
        assertThat(shrunk.nodes()).containsExactly("gpu-014");
        assertThat(hostnames(show("reservation", spec.ref().name()).get("Nodes")))
                .containsExactly("gpu-014");
        assertThat(shrunk.nodeStates()).containsKey("gpu-014");
        driver.teardown(spec.ref());
    }

    @Test
    void aCommandPrefixCarriesEveryCommandAsSshWould(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("commands.log");
        SlurmDriver viaPrefix = SlurmDriver.create(
                "slurm-test",
                new SlurmPool(
                        List.of("bash", "-c", "echo \"$*\" >> " + log + "; exec \"$@\"", "ssh-standin"),
                        slurm.slurmConf(),
                        "login.test",
                        ZoneId.systemDefault(),
                        Duration.ofSeconds(30)));
        ClusterBlueprint spec = Specs.slurm(List.of("gpu-015"));

        viaPrefix.provision(spec);
        viaPrefix.teardown(spec.ref());

        assertThat(Files.readString(log))
                .contains(
                        "sacctmgr -i add account " + spec.tenant(),
                        "scontrol create reservation ReservationName="
                                + spec.ref().name(),
                        "scontrol delete PartitionName=" + spec.ref().name());
        assertThat(viaPrefix.status(spec.ref())).isEqualTo(ClusterStatus.absent(spec.ref()));
    }

    @Test
    void theControllerStartedForTheTestsHidesTenantsFromEachOther() {
        assertThat(driver.isolationProblems()).isEmpty();
    }

    private SlurmRecord show(String entity, String name) {
        SlurmCluster.Result shown = slurm.run("scontrol", "show", entity, name, "-o");
        assertThat(shown.exitCode()).as(shown.stderr()).isZero();
        return SlurmRecord.parse(shown.stdout());
    }

    private List<String> hostnames(String hostlist) {
        return slurm.run("scontrol", "show", "hostnames", hostlist)
                .stdout()
                .lines()
                .toList();
    }

    /** Figures for the report; no assertion on time. */
    private void measureShowCommands(String name) {
        SlurmCommands commands = new SlurmCommands(List.of(), slurm.slurmConf(), Duration.ofSeconds(30));
        long total = 0;
        int runs = 20;
        for (int i = 0; i < runs; i++) {
            total += commands.run("scontrol", "show", "reservation", name, "--oneliner")
                    .took()
                    .toNanos();
        }
        System.out.printf(
                "scontrol show reservation: %.1f ms on average over %d runs (process start included)%n",
                total / 1e6 / runs, runs);
    }
}
