package dev.allot.provisioning.driver.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.io.IOException;
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
 * Acceptance and on-demand checks through the whole lifecycle on the real slurmctld and the nodes' own slurmds
 * ({@link SlurmCluster}): each check is an srun job pinned to its node, whose stand-in executable (the nodes have
 * no GPUs) prints a recorded nvidia-smi output chosen by the node it runs on; Allot parses it and decides.
 */
class SlurmAcceptanceTests extends SlurmStandInTest {

    private static final String POOL =
            "slurm-hc-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 30, 1L << 35), 36);

    private static final List<String> NODES = List.of("gpu-001", "gpu-002", "gpu-003");

    @DynamicPropertySource
    static void slurmPoolWithStandInChecks(DynamicPropertyRegistry registry) throws IOException {
        newRecordings("acceptance");
        SlurmCluster.standInPool(registry, POOL, () -> slurm.slurmConf(), recordings, "NVIDIA_SMI");
        registry.add("allot.provisioning.health.check-timeout", () -> "60s");
    }

    @Test
    void aNodeFailingAcceptanceIsReplacedOnSlurmBeforeHandoverAndAnOnDemandCheckDegradesTheCluster()
            throws IOException {
        Setup s = namedPool(POOL, NODES);
        Instant start = hour(2);
        String id = bookAndAwaitSchedule(s, 16, start, hour(3), "SLURM");
        String name = "allot-" + id;
        List<String> booked = booked(s, id);
        String bad = booked.get(1);
        String spare =
                NODES.stream().filter(n -> !booked.contains(n)).findFirst().orElseThrow();
        record("default.NVIDIA_SMI", "nvidia-smi-h100-healthy.txt");
        record(bad + ".NVIDIA_SMI", "nvidia-smi-h100-ecc-xid79.txt");

        runDueAt(start.minus(Duration.ofMinutes(15)));

        JsonNode ready = cluster(s, id);
        assertThat(ready.get("state").asString()).as(ready.toString()).isEqualTo("READY");
        assertThat(ready.get("nodes")
                        .valueStream()
                        .map(n -> n.get("hostname").asString() + " "
                                + n.get("health").asString()))
                .containsExactlyInAnyOrder(booked.get(0) + " PASSED", spare + " PASSED", bad + " REPLACED");
        assertThat(ready.get("timeline").valueStream().map(e -> e.get("detail").asString()))
                .anyMatch(d -> d.startsWith(
                        bad + " failed acceptance (NVIDIA_SMI: nvidia-smi failed: GPU 3: 2 uncorrected ECC"))
                .anyMatch(d -> d.endsWith("replaced by " + spare + " before handover."));
        SlurmRecord reservation = SlurmRecord.parse(
                slurm.run("scontrol", "show", "reservation", name, "--oneliner").stdout());
        assertThat(slurm.driver().hostnames(reservation.get("Nodes"))).containsExactlyInAnyOrder(booked.get(0), spare);

        // on demand: the spare now prints a software fault (an application Xid)
        record(spare + ".NVIDIA_SMI", "nvidia-smi-h100-xid13.txt");
        Api.Response asked = api.post(path(s, id) + "/health-checks", s.token(), Map.of("kind", "NVIDIA_SMI"));
        assertThat(asked.status()).as(asked.body()).isEqualTo(202);
        runDueAt(start.minus(Duration.ofMinutes(14)));
        JsonNode check = api.get(asked.header("Location"), s.token()).json();
        assertThat(check.get("status").asString()).as(check.toString()).isEqualTo("FAILED");
        JsonNode failed = check.get("results")
                .valueStream()
                .filter(r -> !r.get("passed").asBoolean())
                .findFirst()
                .orElseThrow();
        assertThat(failed.get("node").asString()).isEqualTo(spare);
        assertThat(failed.get("fault").asString()).isEqualTo("SOFTWARE");
        assertThat(failed.get("output").asString()).contains("NVRM: Xid (PCI:0000:3a:00): 13");
        JsonNode degraded = cluster(s, id);
        assertThat(degraded.get("state").asString()).isEqualTo("DEGRADED");
        // a software fault, the node's first: rebooted through Slurm, on the timeline
        assertThat(degraded.get("timeline")
                        .valueStream()
                        .map(e ->
                                e.get("step").asString() + " " + e.get("detail").asString()))
                .anyMatch(d -> d.startsWith("remediation Rebooting " + spare + " for a software fault")
                        && d.endsWith("scontrol reboot ASAP nextstate=RESUME " + spare + "."));
        SlurmRecord rebooted = SlurmRecord.parse(
                slurm.run("scontrol", "show", "node", spare, "--oneliner").stdout());
        assertThat(rebooted.get("State")).contains("REBOOT");
        slurm.backInService(spare); // the test host does not reboot

        runDueAt(hour(3));
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("DELETED");
    }
}
