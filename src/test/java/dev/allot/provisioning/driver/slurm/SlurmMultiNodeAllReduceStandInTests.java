package dev.allot.provisioning.driver.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.support.Api;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Acceptance of a two-node Slurm cluster ends with one {@code NCCL_ALL_REDUCE} job across both nodes ({@code srun
 * --nodelist=a,b --nodes=2 --ntasks-per-node=1}) on the real slurmctld and slurmds ({@link SlurmCluster}). The
 * nodes have no GPUs: each task runs the stand-in executable, whose first task prints a recorded multi-node
 * all_reduce_perf table (as rank 0 does); Allot judges it by the multi-node bus bandwidth threshold.
 */
class SlurmMultiNodeAllReduceStandInTests extends SlurmStandInTest {

    private static final String POOL =
            "slurm-mn-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 30, 1L << 35), 36);

    private static final List<String> NODES = List.of("gpu-004", "gpu-017", "gpu-018");

    private static Setup setup;

    @DynamicPropertySource
    static void slurmPoolWithStandInChecks(DynamicPropertyRegistry registry) throws IOException {
        newRecordings("all-reduce");
        SlurmCluster.standInPool(registry, POOL, () -> slurm.slurmConf(), recordings, "NVIDIA_SMI", "NCCL_ALL_REDUCE");
        registry.add("allot.provisioning.health.multi-node-all-reduce", () -> "true");
        registry.add("allot.provisioning.health.defaults.nccl-bus-bandwidth-gbps", () -> "400");
        registry.add("allot.provisioning.health.defaults.nccl-multi-node-bus-bandwidth-gbps", () -> "150");
        registry.add("allot.provisioning.health.check-timeout", () -> "90s");
    }

    private Setup pool() throws IOException {
        if (setup == null) {
            setup = namedPool(POOL, NODES);
        }
        try (var files = Files.list(recordings)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        record("default.NVIDIA_SMI", "nvidia-smi-h100-healthy.txt");
        record("default.NCCL_ALL_REDUCE", "nccl-all-reduce-h100-8.txt");
        return setup;
    }

    @Test
    void oneAllReduceJobAcrossBothNodesWithTheStandInPassesTheMultiNodeThresholdAfterThePerNodeChecks()
            throws IOException {
        Setup s = pool();
        Instant start = hour(2);
        String id = bookAndAwaitSchedule(s, 16, start, hour(3), "SLURM");
        List<String> booked = booked(s, id);
        record("across.NCCL_ALL_REDUCE", "nccl-all-reduce-h100-2x8.txt");

        runDueAt(start.minus(Duration.ofMinutes(15)));

        JsonNode ready = cluster(s, id);
        assertThat(ready.get("state").asString()).as(ready.toString()).isEqualTo("READY");
        assertThat(details(ready))
                .contains("NCCL_ALL_REDUCE: average bus bandwidth 264.21 GB/s (threshold 150.00 GB/s for " + s.gpuType()
                        + " multi-node) across " + String.join(", ", booked) + ".");
        // one job, one task on each node: as Slurm's accounting recorded it
        String job = "allot-check-" + id.substring(0, 8) + "-2-nodes";
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            String line = slurm.run("sacct", "-X", "-n", "-P", "--name=" + job, "-o", "NNodes,NodeList")
                    .stdout()
                    .strip();
            assertThat(line).as("sacct of " + job).startsWith("2|");
            assertThat(slurm.driver().hostnames(line.substring(2))).containsExactlyInAnyOrderElementsOf(booked);
        });

        runDueAt(hour(3));
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("DELETED");
    }

    @Test
    void aSlowAllReduceAcrossNodesWhoseNodesPassAloneHandsTheClusterOverDegradedNamingBusBandwidthAndThreshold()
            throws IOException {
        Setup s = pool();
        Instant start = hour(5);
        String id = bookAndAwaitSchedule(s, 16, start, hour(6), "SLURM");
        List<String> booked = booked(s, id);
        record("across.NCCL_ALL_REDUCE", "nccl-all-reduce-h100-2x8-slow.txt");

        runDueAt(start.minus(Duration.ofMinutes(15)));

        JsonNode degraded = cluster(s, id);
        assertThat(degraded.get("state").asString()).as(degraded.toString()).isEqualTo("DEGRADED");
        assertThat(degraded.get("stateReason").asString())
                .contains(String.join(", ", booked) + " together (NCCL_ALL_REDUCE: all_reduce_perf failed: average bus "
                        + "bandwidth 80.43 GB/s is below the " + s.gpuType() + " multi-node threshold of 150.00 GB/s)")
                .endsWith(
                        "each node passed the all-reduce alone: the fault lies between them (network, switch, cabling)");
        // no node is blamed: both stay, passed
        assertThat(degraded.get("nodes")
                        .valueStream()
                        .map(n -> n.get("hostname").asString() + " "
                                + n.get("health").asString()))
                .containsExactlyInAnyOrder(booked.get(0) + " PASSED", booked.get(1) + " PASSED");
        assertThat(reservationStatus(s, id)).isEqualTo("ACTIVE");

        runDueAt(hour(6));
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("DELETED");
    }

    @Test
    void aNodeSlowAloneIsBlamedForASlowAllReduceAcrossNodesAndReplacedThenTheNewPairPasses() throws IOException {
        Setup s = pool();
        Instant start = hour(8);
        String id = bookAndAwaitSchedule(s, 16, start, hour(9), "SLURM");
        List<String> booked = booked(s, id);
        String bad = booked.get(1);
        String free =
                NODES.stream().filter(n -> !booked.contains(n)).findFirst().orElseThrow();
        record("across.NCCL_ALL_REDUCE", "nccl-all-reduce-h100-2x8-slow.txt");
        record(bad + ".NCCL_ALL_REDUCE", "nccl-all-reduce-h100-8-slow.txt");
        String pair = slurm.run("scontrol", "show", "hostlist", booked.get(0) + "," + free)
                .stdout()
                .strip();
        record("across-" + pair + ".NCCL_ALL_REDUCE", "nccl-all-reduce-h100-2x8.txt");

        runDueAt(start.minus(Duration.ofMinutes(15)));

        JsonNode ready = cluster(s, id);
        try {
            assertThat(ready.get("state").asString()).as(ready.toString()).isEqualTo("READY");
            assertThat(ready.get("nodes")
                            .valueStream()
                            .filter(n -> !n.get("health").asString().equals("REPLACED"))
                            .map(n -> n.get("hostname").asString()))
                    .containsExactlyInAnyOrder(booked.get(0), free);
            assertThat(details(ready))
                    .anyMatch(d ->
                            d.startsWith(bad + " failed acceptance (NCCL_ALL_REDUCE: all_reduce_perf failed: average "
                                            + "bus bandwidth 49.76 GB/s")
                                    && d.endsWith("replaced by " + free + " before handover."))
                    .anyMatch(d -> d.startsWith("NCCL_ALL_REDUCE: average bus bandwidth 264.21 GB/s")
                            && d.endsWith(" (again, after the replacement)."));
        } finally {
            // a slow node's first fault is a software one: Slurm was asked to reboot it; the test host does not
            slurm.backInService(bad);
        }

        runDueAt(hour(9));
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("DELETED");
    }

    @Test
    void
            anAllReduceAcrossNodesAskedForOnDemandBlamesTheNodeSlowAloneWhichIsRebootedAndBackInServiceOnlyAfterPassingAgain()
                    throws IOException {
        Setup s = pool();
        Instant start = hour(11);
        String id = bookAndAwaitSchedule(s, 16, start, hour(12), "SLURM");
        List<String> booked = booked(s, id);
        String bad = booked.get(0);
        record("across.NCCL_ALL_REDUCE", "nccl-all-reduce-h100-2x8.txt");
        runDueAt(start.minus(Duration.ofMinutes(15)));
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("READY");

        record("across.NCCL_ALL_REDUCE", "nccl-all-reduce-h100-2x8-slow.txt");
        record(bad + ".NCCL_ALL_REDUCE", "nccl-all-reduce-h100-8-slow.txt");
        Api.Response asked = api.post(
                path(s, id) + "/health-checks", s.token(), Map.of("kind", "NCCL_ALL_REDUCE", "acrossNodes", true));
        assertThat(asked.status()).as(asked.body()).isEqualTo(202);
        try {
            runDueAt(start.minus(Duration.ofMinutes(14)));

            JsonNode check = api.get(asked.header("Location"), s.token()).json();
            assertThat(check.get("status").asString()).as(check.toString()).isEqualTo("FAILED");
            assertThat(check.get("acrossNodesResult").get("summary").asString())
                    .startsWith("all_reduce_perf failed: average bus bandwidth 80.43 GB/s");
            assertThat(check.get("detail").asString()).endsWith("alone it failed on " + bad);
            assertThat(check.get("results")
                            .valueStream()
                            .filter(r -> !r.get("passed").asBoolean())
                            .map(r -> r.get("node").asString() + " "
                                    + r.get("fault").asString()))
                    .containsExactly(bad + " SOFTWARE");
            JsonNode degraded = cluster(s, id);
            assertThat(degraded.get("state").asString()).isEqualTo("DEGRADED");
            assertThat(degraded.get("stateReason").asString()).isEqualTo("A health check failed on " + bad);
            // one srun across both nodes, then one on each node alone, as Slurm's accounting recorded them
            String job = "allot-check-" + id.substring(0, 8) + "-2-nodes";
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(
                            () -> assertThat(slurm.run("sacct", "-X", "-n", "-P", "--name=" + job, "-o", "NNodes")
                                            .stdout()
                                            .lines()
                                            .map(String::strip)
                                            .toList())
                                    .contains("2"));
            // the node's first fault, a software one: Slurm is asked to reboot it
            assertThat(details(degraded))
                    .anyMatch(d -> d.startsWith("Rebooting " + bad + " for a software fault")
                            && d.endsWith("scontrol reboot ASAP nextstate=RESUME " + bad + "."));

            // while Slurm holds it for the reboot, its check after the reboot waits: the node stays failed
            runDueAt(start.minus(Duration.ofMinutes(13)));
            JsonNode waiting = cluster(s, id);
            assertThat(waiting.get("state").asString()).isEqualTo("DEGRADED");
            assertThat(details(waiting)).noneMatch(d -> d.contains("is back from its reboot"));
            assertThat(scheduled("cluster-node-recheck", id + "/" + bad + "/NCCL_ALL_REDUCE"))
                    .isNotNull();

            // back (the test host does not reboot: its slurmd is brought back as after one), and fast again alone:
            // the same check runs on it, passes, and only then is it back in service
            Files.delete(recordings.resolve(bad + ".NCCL_ALL_REDUCE"));
            slurm.backInService(bad);
            runDueAt(start.minus(Duration.ofMinutes(10)));
            JsonNode back = cluster(s, id);
            assertThat(back.get("state").asString()).as(back.toString()).isEqualTo("READY");
            assertThat(back.get("nodes")
                            .valueStream()
                            .map(n -> n.get("hostname").asString() + " "
                                    + n.get("health").asString()))
                    .containsExactlyInAnyOrder(booked.get(0) + " PASSED", booked.get(1) + " PASSED");
            assertThat(details(back))
                    .anyMatch(d -> d.startsWith(bad + " is back from its reboot and passed NCCL_ALL_REDUCE "
                            + "again: back in service (NCCL_ALL_REDUCE: average bus bandwidth 453.63 GB/s"));
            assertThat(scheduled("cluster-node-recheck", id + "/" + bad + "/NCCL_ALL_REDUCE"))
                    .isNull();
        } finally {
            slurm.backInService(bad);
        }

        runDueAt(hour(12));
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("DELETED");
    }
}
