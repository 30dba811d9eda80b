package dev.allot.provisioning.driver.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.support.Api;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Faults during acceptance on the real slurmctld and slurmds ({@link SlurmCluster}), each pool with one hot spare:
 * a node that Slurm declares down while its check job runs (the stand-in executable of a hung check sleeps on it),
 * and two nodes failing acceptance at once with one spare between them. Each check is a real srun job whose
 * stand-in prints a recorded nvidia-smi output; each test has its own pool and nodes.
 */
class SlurmFaultStandInTests extends SlurmStandInTest {

    private static final String SUFFIX =
            Long.toString(ThreadLocalRandom.current().nextLong(1L << 30, 1L << 35), 36);

    @DynamicPropertySource
    static void slurmPoolsWithStandInChecks(DynamicPropertyRegistry registry) throws IOException {
        newRecordings("faults");
        for (String pool : List.of("slurm-dies-" + SUFFIX, "slurm-spare-" + SUFFIX)) {
            SlurmCluster.standInPool(registry, pool, () -> slurm.slurmConf(), recordings, "NVIDIA_SMI");
        }
        registry.add("allot.provisioning.health.check-timeout", () -> "240s");
    }

    private Setup poolWithOneSpare(String pool, List<String> nodes) throws IOException {
        Setup s = namedPool(pool, nodes);
        assertThat(api.patch("/api/v1/pools/" + pool, adminToken(), Map.of("spareNodes", 1))
                        .status())
                .isEqualTo(200);
        record("default.NVIDIA_SMI", "nvidia-smi-h100-healthy.txt");
        return s;
    }

    private List<String> spares(Setup s) {
        return jdbc.sql("SELECT n.hostname FROM node n JOIN pool p ON p.id = n.pool_id WHERE p.name = ? AND n.spare")
                .param(s.pool())
                .query(String.class)
                .list();
    }

    private String nodeState(String node) {
        return api.get("/api/v1/nodes/" + node, adminToken())
                .json()
                .get("state")
                .asString();
    }

    private long degradedSpans(String reservationId) {
        return jdbc.sql("SELECT count(*) FROM node_degraded WHERE reservation_id = ?")
                .param(UUID.fromString(reservationId))
                .query(Long.class)
                .single();
    }

    /** Once the check job runs on the node, the node dies: Slurm declares it down and ends the job's step. */
    private void dies(String node, String job) {
        await().atMost(Duration.ofSeconds(180))
                .until(
                        () -> slurm.run("squeue", "-h", "-t", "R", "--name=" + job, "-o", "%N")
                                .stdout()
                                .strip(),
                        node::equals);
        assertThat(slurm.run("scontrol", "update", "NodeName=" + node, "State=DOWN", "Reason=allot-test-died")
                        .exitCode())
                .isZero();
    }

    @Test
    void
            aNodeThatDiesUnderItsAcceptanceOrOnDemandCheckWithTheStandInIsQuarantinedReplacedByTheSpareOrDegradedChargingNothing()
                    throws Exception {
        Setup s = poolWithOneSpare("slurm-dies-" + SUFFIX, List.of("gpu-019", "gpu-020"));
        String spare = spares(s).getFirst();
        Instant start = hour(2);
        String id = bookAndAwaitSchedule(s, 8, start, hour(3), "SLURM");
        String dying = booked(s, id).getFirst();
        Files.writeString(recordings.resolve(dying + ".NVIDIA_SMI"), "@@ hang\n");
        String job = "allot-check-" + id.substring(0, 8) + "-" + dying;
        try {
            CompletableFuture<Void> provisioning =
                    CompletableFuture.runAsync(() -> runDueAt(start.minus(Duration.ofMinutes(15))));
            dies(dying, job);
            provisioning.get(300, TimeUnit.SECONDS);

            JsonNode ready = cluster(s, id);
            System.out.println("Timeline after the node died mid-check: " + details(ready));
            assertThat(ready.get("state").asString()).as(ready.toString()).isEqualTo("READY");
            assertThat(ready.get("nodes")
                            .valueStream()
                            .map(n -> n.get("hostname").asString() + " "
                                    + n.get("health").asString()))
                    .containsExactly(spare + " PASSED", dying + " REPLACED");
            assertThat(details(ready))
                    .anyMatch(d ->
                            d.startsWith(dying + " failed acceptance (NVIDIA_SMI: the node could not run the check: ")
                                    && d.contains(dying + " ")
                                    && d.endsWith("replaced by " + spare + " before handover."))
                    .anyMatch(d -> d.startsWith(
                            "Quarantined " + dying + " (hardware fault: NVIDIA_SMI: the node could not run"));
            // unreachable is hardware: out of service, its window back to the pool, nothing credited or charged for it
            assertThat(nodeState(dying)).isEqualTo("QUARANTINED");
            assertThat(activeAllocations(id)).isEqualTo(1);
            assertThat(degradedSpans(id)).isZero();
            assertThat(slurm.run("squeue", "-h", "--name=" + job).stdout()).isBlank();

            // on demand, the spare now in service dies under its check too: the check fails naming it, the node is
            // quarantined, and with no spare or free node left the cluster stays DEGRADED saying so, credited
            Files.writeString(recordings.resolve(spare + ".NVIDIA_SMI"), "@@ hang\n");
            Api.Response asked = api.post(path(s, id) + "/health-checks", s.token(), Map.of("kind", "NVIDIA_SMI"));
            assertThat(asked.status()).as(asked.body()).isEqualTo(202);
            CompletableFuture<Void> checking =
                    CompletableFuture.runAsync(() -> runDueAt(start.minus(Duration.ofMinutes(14))));
            dies(spare, "allot-check-" + id.substring(0, 8) + "-" + spare);
            checking.get(300, TimeUnit.SECONDS);

            JsonNode check = api.get(asked.header("Location"), s.token()).json();
            assertThat(check.get("status").asString()).as(check.toString()).isEqualTo("FAILED");
            JsonNode result = check.get("results").get(0);
            assertThat(result.get("node").asString()).isEqualTo(spare);
            assertThat(result.get("fault").asString()).isEqualTo("HARDWARE");
            // srun's own words ("Node failure on ...") or, when it printed other ones, Slurm's state after the job
            assertThat(result.get("summary").asString())
                    .startsWith("the node could not run the check: ")
                    .contains(spare);
            JsonNode degraded = cluster(s, id);
            assertThat(degraded.get("state").asString()).as(degraded.toString()).isEqualTo("DEGRADED");
            assertThat(degraded.get("stateReason").asString())
                    .startsWith("A health check failed on " + spare
                            + ": quarantined (hardware fault: NVIDIA_SMI: the node could not run the check")
                    .endsWith("no spare or free node can replace it");
            assertThat(nodeState(spare)).isEqualTo("QUARANTINED");
            // the tenant is not charged for the node from the fault on
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(degradedSpans(id)).isEqualTo(1));
        } finally {
            // the test's nodes come back for the other tests (ReturnToService=2 may already have returned them)
            for (String node : List.of(dying, spare)) {
                Files.deleteIfExists(recordings.resolve(node + ".NVIDIA_SMI"));
                slurm.backInService(node);
            }
        }

        runDueAt(hour(3));
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("DELETED");
    }

    @Test
    void twoNodesFailingAcceptanceWithTheStandInShareOneSpareOneGetsItTheOtherIsHandedOverDegradedSayingWhy()
            throws IOException {
        Setup s = poolWithOneSpare("slurm-spare-" + SUFFIX, List.of("gpu-021", "gpu-022", "gpu-008"));
        String spare = spares(s).getFirst();
        Instant start = hour(5);
        String id = bookAndAwaitSchedule(s, 16, start, hour(6), "SLURM");
        List<String> bad = booked(s, id);
        assertThat(bad).doesNotContain(spare);
        bad.forEach(node -> {
            try {
                record(node + ".NVIDIA_SMI", "nvidia-smi-h100-ecc-xid79.txt");
            } catch (IOException ex) {
                throw new IllegalStateException(ex);
            }
        });

        runDueAt(start.minus(Duration.ofMinutes(15)));

        JsonNode degraded = cluster(s, id);
        System.out.println("Timeline after two failures with one spare: " + details(degraded));
        assertThat(degraded.get("state").asString()).as(degraded.toString()).isEqualTo("DEGRADED");
        List<String> held = degraded.get("nodes")
                .valueStream()
                .filter(n -> !n.get("health").asString().equals("REPLACED"))
                .map(n -> n.get("hostname").asString())
                .toList();
        assertThat(held).containsOnlyOnce(spare).hasSize(2);
        String stranded =
                held.stream().filter(n -> !n.equals(spare)).findFirst().orElseThrow();
        assertThat(bad).contains(stranded);
        assertThat(degraded.get("stateReason").asString()).contains(stranded);
        assertThat(details(degraded))
                .anyMatch(d -> d.endsWith("replaced by " + spare + " before handover."))
                .anyMatch(d -> d.startsWith(
                                stranded + " failed acceptance (NVIDIA_SMI: nvidia-smi failed: GPU 3: 2 uncorrected")
                        && d.endsWith("no healthy free node can replace it."));
        // the spare went to one cluster once; none is left to hold, and Slurm holds exactly that node set
        assertThat(jdbc.sql(
                                "SELECT count(*) FROM allocation a JOIN node n ON n.id = a.node_id WHERE n.hostname = ? AND a.active")
                        .param(spare)
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
        assertThat(spares(s)).isEmpty();
        SlurmRecord reservation =
                SlurmRecord.parse(slurm.run("scontrol", "show", "reservation", "allot-" + id, "--oneliner")
                        .stdout());
        assertThat(slurm.driver().hostnames(reservation.get("Nodes"))).containsExactlyInAnyOrderElementsOf(held);
        // the stranded node is credited from handover (billing), the swapped-out one never was the tenant's
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(degradedSpans(id)).isEqualTo(1));

        runDueAt(hour(6));
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("DELETED");
    }
}
