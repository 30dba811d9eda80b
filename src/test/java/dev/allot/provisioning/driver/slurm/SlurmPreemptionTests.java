package dev.allot.provisioning.driver.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.support.Api;
import java.io.IOException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Reclaiming through provisioning and teardown on the real slurmctld ({@link SlurmCluster}), with a short notice: a
 * borrower's cluster is READY on both nodes of a pool; a guaranteed booking reclaims them at the notice's end. The
 * guaranteed cluster's Slurm reservation cannot be made while the borrower's still holds the nodes (Slurm refuses
 * overlapping reservations), so it waits; at the notice's end the borrower's Slurm reservation and partition are
 * gone, and the guaranteed cluster is READY on the nodes before its start. The nodes (gpu-012, gpu-016) point at no
 * slurmd: Slurm holds them DOWN, and no check runs before handover.
 */
class SlurmPreemptionTests extends SlurmStandInTest {

    private static final String POOL =
            "slurm-reclaim-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 30, 1L << 35), 36);

    private static final List<String> NODES = List.of("gpu-012", "gpu-016");

    @DynamicPropertySource
    static void slurmPool(DynamicPropertyRegistry registry) throws IOException {
        newRecordings("reclaim");
        SlurmCluster.standInPool(registry, POOL, () -> slurm.slurmConf(), recordings);
        registry.add("allot.provisioning.health.acceptance", () -> "");
        registry.add("allot.sharing.preemption-notice", () -> "PT5M");
    }

    @Test
    void aPreemptedSlurmClusterLetsGoOfItsNodesAtTheNoticesEndAndTheGuaranteedClusterIsReadyOnThemBeforeItsStart() {
        Setup borrower = namedPool(POOL, NODES);
        Map<String, Object> borrowing = policy(borrower.gpuType(), 0, 16, false);
        borrowing.put("priority", "EXPERIMENT");
        setQuota(borrower.tenant(), borrowing);
        Setup guaranteed = setup(2, NODES, POOL, borrower.gpuType());

        Instant start = now().truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(2));
        String victim = bookAndAwaitSchedule(borrower, 16, start, hour(8), "SLURM");
        runDueAt(start);
        assertThat(cluster(borrower, victim).get("state").asString()).isEqualTo("READY");
        String victimName = "allot-" + victim;
        assertThat(slurm.run("scontrol", "show", "reservation", victimName).exitCode())
                .isZero();

        // the guaranteed tenant books at the start its 409 names: the end of the borrower's notice
        Instant soon = now().truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(3));
        Api.Response refused = book(guaranteed, 16, soon, soon.plus(Duration.ofHours(1)), "SLURM");
        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        Instant earliest = Instant.parse(refused.json().get("earliestStart").asString());
        String id = bookAndAwaitSchedule(guaranteed, 16, earliest, earliest.plus(Duration.ofHours(1)), "SLURM");
        assertThat(reservationStatus(borrower, victim)).isEqualTo("PREEMPTED");
        Instant noticeEnd = jdbc.sql(
                        "SELECT max(upper(during)) FROM allocation WHERE reservation_id = ?::uuid AND active")
                .param(victim)
                .query(Timestamp.class)
                .single()
                .toInstant();
        await().atMost(Duration.ofSeconds(30)).until(() -> noticeEnd.equals(scheduled("cluster-teardown", victim)));

        // inside the notice: Slurm refuses the overlapping reservation, and the guaranteed cluster waits
        runDueAt(scheduled("cluster-provision", id));
        JsonNode waiting = cluster(guaranteed, id);
        assertThat(waiting.get("state").asString()).as(waiting.toString()).isNotEqualTo("FAILED");
        assertThat(details(waiting)).anyMatch(d -> d.startsWith("Waiting for node "));
        assertThat(slurm.run("scontrol", "show", "reservation", "allot-" + id).exitCode())
                .isNotZero();

        // the notice ends: the borrower's Slurm reservation and partition are gone
        runDueAt(noticeEnd);
        assertThat(cluster(borrower, victim).get("state").asString()).isEqualTo("DELETED");
        assertThat(slurm.run("scontrol", "show", "reservation", victimName).exitCode())
                .isNotZero();
        assertThat(slurm.run("scontrol", "show", "partition", victimName).exitCode())
                .isNotZero();

        // and the guaranteed cluster is READY on the nodes, before its start (provisioning reads the allocations at
        // the application's time: the borrower's holding has ended by then)
        advanceApplicationClock(Duration.between(now(), noticeEnd.plusSeconds(30)));
        runDueAt(noticeEnd.plusSeconds(30));
        JsonNode ready = cluster(guaranteed, id);
        assertThat(ready.get("state").asString()).as(ready.toString()).isEqualTo("READY");
        assertThat(Instant.parse(ready.get("readyAt").asString())).isBefore(earliest);
        SlurmRecord reservation =
                SlurmRecord.parse(slurm.run("scontrol", "show", "reservation", "allot-" + id, "--oneliner")
                        .stdout());
        assertThat(reservation.get("Nodes")).isEqualTo("gpu-[012,016]");
        assertThat(reservation.get("Accounts")).isEqualTo(guaranteed.tenant());

        runDueAt(earliest.plus(Duration.ofHours(1)));
        assertThat(cluster(guaranteed, id).get("state").asString()).isEqualTo("DELETED");
    }
}
