package dev.allot.provisioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.booking.ReservationLifecycle;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The reconciler wakes on changes (issue 26), not only on its timer: PostgreSQL announces each change of holdings
 * as it commits, and the reconciler acts on it within a moment. The periodic pass is off in these tests (the
 * manual scheduler never runs it), so only the wake can act. The context is closed after the class: its listener
 * would otherwise act on the clusters of other test contexts, whose fake drivers are their own.
 */
@TestPropertySource(properties = "allot.provisioning.lifecycle.wake-on-changes=true")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class ReconcilerWakeTests extends ReclaimingLifecycleTest {

    @Autowired
    ReservationLifecycle lifecycle;

    @Test
    void aNodeReplacedInARunningReservationIsSwappedInItsClusterWithinSecondsWithoutATimerPass() {
        Setup s = fleet(3);
        Instant start = now().truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(10));
        String id = bookAndAwaitSchedule(s, 16, start, start.plus(Duration.ofHours(1)), "KUBERNETES");
        runDueAt(now());
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("READY");
        List<String> before = fake.clusters().get(UUID.fromString(id)).nodes();
        String moved = before.getFirst();

        // only the allocations change, as a crash right after that commit would leave them
        String replacement = lifecycle
                .replaceNode(UUID.fromString(id), moved, List.of(moved))
                .orElseThrow();

        await().atMost(Duration.ofSeconds(15))
                .untilAsserted(() -> assertThat(
                                fake.clusters().get(UUID.fromString(id)).nodes())
                        .containsExactlyInAnyOrder(before.get(1), replacement));
        JsonNode cluster = cluster(s, id);
        assertThat(cluster.get("state").asString()).isEqualTo("READY");
        assertThat(cluster.get("timeline")
                        .valueStream()
                        .filter(e -> e.get("step").asString().equals("reconcile"))
                        .map(e -> e.get("detail").asString()))
                .anyMatch(d -> d.startsWith("Took " + moved + " out of the cluster"));
    }

    @Test
    void aGuaranteedClusterWaitingForItsNodesIsBuiltAsSoonAsThePreemptedClusterLetsGoOfThem() {
        Reclaim r = borrowerRunningOnTheWholePool();
        String guaranteed = reclaimAtTheNoticesEnd(r);
        Instant noticeEnd = noticeEnd(r.victim());
        Instant start = startOf(r.guaranteed(), guaranteed);
        runDueAt(start.minus(Duration.ofMinutes(15)));
        // waiting, and (without a wake) looking again only 30 s after the notice's end
        assertThat(scheduled("cluster-provision", guaranteed)).isEqualTo(noticeEnd.plusSeconds(30));

        // the notice ends and the borrower's cluster is torn down
        advanceApplicationClock(Duration.between(now(), noticeEnd));
        runDueAt(noticeEnd);
        assertThat(cluster(r.borrower(), r.victim()).get("state").asString()).isEqualTo("DELETED");

        // the cluster letting go is announced: the waiting build is due at once, not half a minute later
        await().atMost(Duration.ofSeconds(15))
                .untilAsserted(() ->
                        assertThat(scheduled("cluster-provision", guaranteed)).isBefore(noticeEnd.plusSeconds(5)));
        runDueAt(noticeEnd.plusSeconds(5));
        JsonNode ready = cluster(r.guaranteed(), guaranteed);
        assertThat(ready.get("state").asString()).isEqualTo("READY");
        assertThat(fake.clusters().get(UUID.fromString(guaranteed)).nodes())
                .containsExactlyInAnyOrderElementsOf(r.guaranteed().nodes());
    }
}
