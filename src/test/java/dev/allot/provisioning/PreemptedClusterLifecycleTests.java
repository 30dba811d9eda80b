package dev.allot.provisioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.shared.UtcText;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Reclaiming through provisioning and teardown, on the fake driver: a borrower's READY cluster is preempted for a
 * guaranteed booking. The borrower's cluster is torn down when the notice ends (before: its teardown was postponed
 * to the window's original end, and it kept the nodes); the guaranteed cluster, built a lead time before its start
 * and so inside the notice, waits for the nodes ("waiting for node X, free at T") instead of failing five times and
 * ending FAILED before its start; and it fails only when its start plus the grace passes without them, telling its
 * tenant.
 */
class PreemptedClusterLifecycleTests extends ReclaimingLifecycleTest {

    @Test
    void aPreemptedRunningClusterIsTornDownWhenTheNoticeEndsAndTheGuaranteedClusterWaitsForItsNodesThenIsReady() {
        Reclaim r = borrowerRunningOnTheWholePool();
        String guaranteed = reclaimAtTheNoticesEnd(r);
        Instant noticeEnd = noticeEnd(r.victim());
        Instant start = startOf(r.guaranteed(), guaranteed);
        assertThat(noticeEnd).isBeforeOrEqualTo(start);

        // A lead time before its start, inside the notice: the borrower's cluster still holds both nodes, so the
        // guaranteed cluster waits for them; no retry is used, nothing fails
        runDueAt(start.minus(Duration.ofMinutes(15)));
        JsonNode waiting = cluster(r.guaranteed(), guaranteed);
        assertThat(waiting.get("state").asString()).isNotEqualTo("FAILED");
        assertThat(reservationStatus(r.guaranteed(), guaranteed)).isNotEqualTo("FAILED");
        assertThat(waiting.get("timeline")
                        .valueStream()
                        .filter(e -> e.get("outcome").asString().equals("WAITING")))
                .singleElement()
                .satisfies(e -> assertThat(e.get("detail").asString())
                        .startsWith("Waiting for node ")
                        .contains("free at " + UtcText.of(noticeEnd)));
        assertThat(waiting.get("timeline")
                        .valueStream()
                        .map(e -> e.get("outcome").asString()))
                .doesNotContain("RETRYING", "GAVE_UP");
        assertThat(scheduled("cluster-provision", guaranteed)).isEqualTo(noticeEnd.plusSeconds(30));
        assertThat(cluster(r.borrower(), r.victim()).get("state").asString()).isEqualTo("READY");
        // The borrower's teardown is due at the notice's end, not at its window's original end
        assertThat(scheduled("cluster-teardown", r.victim())).isEqualTo(noticeEnd);

        // The notice ends: the borrower's cluster goes, and is not postponed to the original end
        runDueAt(noticeEnd);
        JsonNode victim = cluster(r.borrower(), r.victim());
        assertThat(victim.get("state").asString()).isEqualTo("DELETED");
        assertThat(victim.get("timeline")
                        .valueStream()
                        .map(e -> e.get("outcome").asString()))
                .doesNotContain("POSTPONED");
        assertThat(reservationStatus(r.borrower(), r.victim())).isEqualTo("PREEMPTED");
        assertThat(fake.clusters()).doesNotContainKey(UUID.fromString(r.victim()));

        // and the guaranteed cluster is built on the freed nodes, READY before its start (provisioning reads the
        // allocations at the application's time: the borrower's holding has ended by then)
        advanceApplicationClock(Duration.between(now(), noticeEnd.plusSeconds(30)));
        runDueAt(noticeEnd.plusSeconds(30));
        JsonNode ready = cluster(r.guaranteed(), guaranteed);
        assertThat(ready.get("state").asString()).isEqualTo("READY");
        assertThat(Instant.parse(ready.get("readyAt").asString())).isBefore(start);
        assertThat(fake.clusters()).containsOnlyKeys(UUID.fromString(guaranteed));
        // no node is in two live clusters, judged by what the driver holds
        assertThat(fake.clusters().get(UUID.fromString(guaranteed)).nodes())
                .containsExactlyInAnyOrderElementsOf(r.guaranteed().nodes());
    }

    @Test
    void theGuaranteedClusterIsBuiltOnTheNodeAlreadyFreeDuringTheNoticeAndOnlyTheFreedNodeIsAddedAndCheckedAfter() {
        Reclaim r = borrowerRunning(8);
        String victimNode =
                fake.clusters().get(UUID.fromString(r.victim())).nodes().getFirst();
        String freeNode = r.guaranteed().nodes().stream()
                .filter(n -> !n.equals(victimNode))
                .findFirst()
                .orElseThrow();
        String guaranteed = reclaimAtTheNoticesEnd(r);
        Instant noticeEnd = noticeEnd(r.victim());
        Instant start = startOf(r.guaranteed(), guaranteed);

        // A lead time before its start, inside the notice: built and checked on the free node, waiting for the other
        runDueAt(start.minus(Duration.ofMinutes(15)));
        JsonNode partly = cluster(r.guaranteed(), guaranteed);
        assertThat(partly.get("state").asString()).isEqualTo("RUNNING_ACCEPTANCE_TESTS");
        assertThat(fake.clusters().get(UUID.fromString(guaranteed)).nodes()).containsExactly(freeNode);
        assertThat(partly.get("nodes")
                        .valueStream()
                        .map(n -> n.get("hostname").asString() + " "
                                + n.get("health").asString()))
                .containsExactly(freeNode + " PASSED");
        assertThat(partly.get("timeline").valueStream().map(e -> e.get("detail").asString()))
                .anySatisfy(d -> assertThat(d)
                        .startsWith("Built and checked on " + freeNode + ", 1 of the 2 nodes booked; " + victimNode
                                + " joins"));
        JsonNode last = partly.get("timeline").get(partly.get("timeline").size() - 1);
        assertThat(last.get("outcome").asString()).isEqualTo("WAITING");
        assertThat(last.get("detail").asString())
                .startsWith("Waiting for node " + victimNode + ", free at " + UtcText.of(noticeEnd));
        assertThat(partly.get("timeline")
                        .valueStream()
                        .map(e -> e.get("outcome").asString()))
                .doesNotContain("RETRYING", "GAVE_UP");
        long checksOfTheFreeNode = fake.calls().stream()
                .filter(c -> c.startsWith("health ") && c.endsWith(" " + freeNode))
                .count();
        assertThat(checksOfTheFreeNode).isPositive();
        assertThat(reservationStatus(r.guaranteed(), guaranteed)).isEqualTo("PROVISIONING");

        // The notice ends: the borrower's cluster goes; the freed node joins, is checked, and the cluster is READY
        // with both nodes before its start, the free node not checked again
        runDueAt(noticeEnd);
        assertThat(cluster(r.borrower(), r.victim()).get("state").asString()).isEqualTo("DELETED");
        advanceApplicationClock(Duration.between(now(), noticeEnd.plusSeconds(30)));
        runDueAt(noticeEnd.plusSeconds(30));
        JsonNode ready = cluster(r.guaranteed(), guaranteed);
        assertThat(ready.get("state").asString()).isEqualTo("READY");
        assertThat(Instant.parse(ready.get("readyAt").asString())).isBefore(start);
        assertThat(fake.clusters().get(UUID.fromString(guaranteed)).nodes())
                .containsExactlyInAnyOrder(freeNode, victimNode);
        assertThat(ready.get("nodes").valueStream().map(n -> n.get("health").asString()))
                .containsOnly("PASSED");
        assertThat(fake.calls().stream()
                        .filter(c -> c.startsWith("health ") && c.endsWith(" " + freeNode))
                        .count())
                .isEqualTo(checksOfTheFreeNode);
        assertThat(fake.calls()).anyMatch(c -> c.startsWith("health ") && c.endsWith(" " + victimNode));
    }

    @Test
    void aGuaranteedClusterWhoseNodesAreStillHeldAfterItsStartPlusTheGraceFailsAndItsTenantIsTold() {
        Reclaim r = borrowerRunningOnTheWholePool();
        String guaranteed = reclaimAtTheNoticesEnd(r);
        Instant start = startOf(r.guaranteed(), guaranteed);
        // The borrower's teardown never comes (say its driver hangs): the nodes stay held
        jdbc.sql("DELETE FROM scheduled_tasks WHERE task_name = 'cluster-teardown' AND task_instance = ?")
                .param(r.victim())
                .update();

        runDueAt(start.minus(Duration.ofMinutes(15)));
        assertThat(cluster(r.guaranteed(), guaranteed).get("state").asString()).isNotEqualTo("FAILED");

        // Still waiting at its start: not failed yet, the grace has not passed
        Instant beforeDeadline = start.plus(Duration.ofMinutes(9));
        advanceApplicationClock(Duration.between(now(), beforeDeadline));
        runDueAt(beforeDeadline);
        assertThat(reservationStatus(r.guaranteed(), guaranteed)).isNotEqualTo("FAILED");
        // its holder let go at the notice's end, so the cluster going is a moment away: it looks again soon, and
        // never later than the start plus the grace
        assertThat(scheduled("cluster-provision", guaranteed))
                .isAfter(beforeDeadline)
                .isBeforeOrEqualTo(start.plus(Duration.ofMinutes(10)));

        advanceApplicationClock(Duration.ofMinutes(1));
        runDueAt(start.plus(Duration.ofMinutes(10)));
        JsonNode failed = cluster(r.guaranteed(), guaranteed);
        assertThat(failed.get("state").asString()).isEqualTo("FAILED");
        assertThat(failed.get("failureReason").asString()).contains("still held by another cluster");
        assertThat(reservationStatus(r.guaranteed(), guaranteed)).isEqualTo("FAILED");
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(api.get(
                                        "/api/v1/tenants/" + r.guaranteed().tenant() + "/notifications",
                                        r.guaranteed().token())
                                .json()
                                .get("items")
                                .valueStream()
                                .filter(n -> n.get("kind").asString().equals("RESERVATION_FAILED")))
                        .singleElement()
                        .satisfies(n -> assertThat(
                                        n.get("details").get("reservationId").asString())
                                .isEqualTo(guaranteed)));
    }
}
