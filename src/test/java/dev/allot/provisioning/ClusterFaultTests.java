package dev.allot.provisioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.testhelper.ManualScheduler;
import com.github.kagkarlsson.scheduler.testhelper.SettableClock;
import com.github.kagkarlsson.scheduler.testhelper.TestHelper;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.fake.FakeDriver;
import dev.allot.provisioning.lifecycle.ClusterStep;
import dev.allot.provisioning.lifecycle.Provisioning;
import dev.allot.provisioning.lifecycle.Teardown;
import dev.allot.support.Api;
import dev.allot.support.RecordedEvents;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** Crashes, lost replies, steps run twice, replicas racing, extensions: each ends in one cluster, or none. */
class ClusterFaultTests extends LifecycleTest {

    @Autowired
    FakeDriver fake;

    @Autowired
    RecordedEvents events;

    @Autowired
    Provisioning provisioning;

    @Autowired
    Teardown teardown;

    @Autowired
    List<Task<?>> tasks;

    @BeforeEach
    void resetTheFakeDriver() {
        fake.reset();
    }

    @Test
    void aStepRevivedAfterItsReplicaDiedMidWayConvergesOnOneClusterHandedOverOnce() {
        Setup s = fleet(2);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 16, start, hour(5), "KUBERNETES");
        Instant due = start.minus(Duration.ofMinutes(15));
        // A replica picks the step, the driver builds the cluster, and the replica dies before it hears back.
        jdbc.sql("""
				UPDATE scheduled_tasks SET picked = true, picked_by = 'replica-that-died', last_heartbeat = ?
				WHERE task_name = 'cluster-provision' AND task_instance = ?""").params(Timestamp.from(due), id).update();
        fake.loseNextReplies(1);
        assertThatThrownBy(() -> provisioning.run(new ClusterStep(UUID.fromString(id), "booked"), 1))
                .isInstanceOf(DriverFailedException.class);
        assertThat(fake.clusters()).containsKey(UUID.fromString(id));
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("CREATING");

        // Its heartbeats stopped: db-scheduler finds the execution dead and runs it again.
        schedulerClock.set(due.plus(Duration.ofHours(1)));
        scheduler.runDeadExecutionDetection();
        runDueAt(due.plus(Duration.ofHours(1)));

        JsonNode ready = cluster(s, id);
        assertThat(ready.get("state").asString()).isEqualTo("READY");
        assertThat(fake.clusters()).hasSize(1);
        assertThat(fake.calls()).filteredOn(c -> c.startsWith("provision")).hasSize(2);
        assertThat(events.ofType(ClusterReady.class))
                .filteredOn(e -> e.reservationId().toString().equals(id))
                .hasSize(1);
        assertThat(ready.get("timeline").valueStream().map(e -> e.get("detail").asString()))
                .anyMatch(d -> d.startsWith("Building again"));
    }

    @Test
    void nodesFreedByACancellationWaitForTheOldClusterToGoInsteadOfFailingTheNewOne() {
        Setup s = fleet(1);
        Instant start = hour(3);
        Instant due = start.minus(Duration.ofMinutes(15));
        String first = bookAndAwaitSchedule(s, 8, start, hour(5), "SLURM");
        runDueAt(due);
        assertThat(cluster(s, first).get("state").asString()).isEqualTo("READY");
        // Cancelled: the booking frees the node at once; the old cluster goes by its own teardown step.
        assertThat(api.post(path(s, first) + "/cancel", s.token(), Map.of()).status())
                .isEqualTo(200);
        String second = bookAndAwaitSchedule(s, 8, start, hour(4), "SLURM");

        // The new cluster's step comes before the old one is gone: the node is still held, so it waits (no error,
        // no retry used) and looks again shortly.
        Instant again = provisioning.run(new ClusterStep(UUID.fromString(second), "booked"), 1);
        assertThat(again).isNotNull().isAfter(now());
        assertThat(cluster(s, second)
                        .get("timeline")
                        .valueStream()
                        .filter(e -> e.get("outcome").asString().equals("WAITING"))
                        .map(e -> e.get("detail").asString()))
                .singleElement()
                .asString()
                .contains("whose cluster is being torn down");
        assertThat(cluster(s, second).get("state").asString()).isNotEqualTo("FAILED");
        assertThat(reservationStatus(s, second)).isNotEqualTo("FAILED");

        runDueAt(due.plus(Duration.ofHours(1)));
        assertThat(cluster(s, first).get("state").asString()).isEqualTo("DELETED");
        assertThat(cluster(s, second).get("state").asString()).isEqualTo("READY");
        assertThat(fake.clusters()).containsOnlyKeys(UUID.fromString(second));
    }

    @Test
    void stepsRunTwiceChangeNothingTheSecondTime() {
        Setup s = fleet(1);
        Instant start = hour(3);
        Instant end = hour(4);
        String id = bookAndAwaitSchedule(s, 8, start, end, "SLURM");
        runDueAt(start.minus(Duration.ofMinutes(15)));
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("READY");

        provisioning.run(new ClusterStep(UUID.fromString(id), "run again by hand"), 1);

        assertThat(cluster(s, id).get("state").asString()).isEqualTo("READY");
        assertThat(reservationStatus(s, id)).isEqualTo("ACTIVE");
        assertThat(events.ofType(ClusterReady.class))
                .filteredOn(e -> e.reservationId().toString().equals(id))
                .hasSize(1);

        runDueAt(end);
        assertThat(teardown.run(new ClusterStep(UUID.fromString(id), "run again by hand"), 1, end))
                .isNull();
        JsonNode deleted = cluster(s, id);
        assertThat(deleted.get("state").asString()).isEqualTo("DELETED");
        assertThat(timeline(deleted)).last().isEqualTo("teardown SUCCEEDED DELETED");
        assertThat(events.ofType(ClusterTornDown.class))
                .filteredOn(e -> e.reservationId().toString().equals(id))
                .hasSize(1);
    }

    @Test
    void twoReplicasPollingAtOnceBuildTheClusterOnce() throws Exception {
        Setup s = fleet(1);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 8, start, hour(4), "SLURM");
        Instant due = start.minus(Duration.ofMinutes(15));
        List<Task<?>> steps = tasks.stream()
                .filter(t -> t.getName().equals("cluster-provision"))
                .toList();
        SettableClock otherClock = new SettableClock();
        otherClock.set(due);
        ManualScheduler otherReplica = TestHelper.createManualScheduler(dataSource, steps)
                .clock(otherClock)
                .build();
        schedulerClock.set(due);
        fake.delay(Duration.ofMillis(200));
        CyclicBarrier together = new CyclicBarrier(2);

        CompletableFuture<Void> one = CompletableFuture.runAsync(() -> poll(together, scheduler));
        CompletableFuture<Void> two = CompletableFuture.runAsync(() -> poll(together, otherReplica));
        CompletableFuture.allOf(one, two).get();

        assertThat(cluster(s, id).get("state").asString()).isEqualTo("READY");
        assertThat(fake.calls()).filteredOn(c -> c.startsWith("provision")).hasSize(1);
        assertThat(events.ofType(ClusterReady.class))
                .filteredOn(e -> e.reservationId().toString().equals(id))
                .hasSize(1);
    }

    private static void poll(CyclicBarrier together, ManualScheduler replica) {
        try {
            together.await();
        } catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
        replica.runAnyDueExecutions();
    }

    @Test
    void theSameStepRunningTwiceAtOnceLeavesOneReadyCluster() throws Exception {
        Setup s = fleet(1);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 8, start, hour(4), "KUBERNETES");
        fake.delay(Duration.ofMillis(100));
        ClusterStep step = new ClusterStep(UUID.fromString(id), "run twice by hand");

        CompletableFuture<Void> one = CompletableFuture.runAsync(() -> provisioning.run(step, 1));
        CompletableFuture<Void> two = CompletableFuture.runAsync(() -> provisioning.run(step, 1));
        CompletableFuture.allOf(one, two).get();

        assertThat(cluster(s, id).get("state").asString()).isEqualTo("READY");
        assertThat(fake.clusters()).containsKey(UUID.fromString(id));
        assertThat(events.ofType(ClusterReady.class))
                .filteredOn(e -> e.reservationId().toString().equals(id))
                .hasSize(1);
    }

    @Test
    void extendingAnActiveReservationMovesTheTeardownAndUpdatesTheCluster() {
        Setup s = fleet(1);
        Instant start = hour(3);
        Instant end = hour(5);
        String id = bookAndAwaitSchedule(s, 8, start, end, "SLURM");
        runDueAt(start.minus(Duration.ofMinutes(15)));
        Api.Response read = api.get(path(s, id), s.token());
        assertThat(read.json().get("status").asString()).isEqualTo("ACTIVE");

        Instant later = hour(6);
        Api.Response extended =
                api.patch(path(s, id), s.token(), Map.of("endsAt", later.toString()), "If-Match", read.header("ETag"));
        assertThat(extended.status()).as(extended.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> later.equals(scheduled("cluster-teardown", id)));
        assertThat(scheduled("cluster-provision", id)).isNotNull();

        runDueAt(now().plusSeconds(5));
        assertThat(fake.clusters().get(UUID.fromString(id)).spec().endsAt()).isEqualTo(later);
        // A teardown step scheduled for the old end (had the extension not moved it) waits for the new end.
        assertThat(teardown.run(new ClusterStep(UUID.fromString(id), "the window ends"), 1, end))
                .isEqualTo(later);

        runDueAt(end);
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("READY");
        runDueAt(later);
        JsonNode deleted = cluster(s, id);
        assertThat(deleted.get("state").asString()).isEqualTo("DELETED");
        assertThat(deleted.get("reservationStatus").asString()).isEqualTo("COMPLETED");
        assertThat(timeline(deleted))
                .contains("schedule SCHEDULED READY", "provision SUCCEEDED READY", "teardown POSTPONED READY");
    }

    @Test
    void teardownThatKeepsFailingGivesUpClosesTheClusterAndSaysAnAdminMustCleanUp() {
        Setup s = fleet(1);
        Instant start = hour(3);
        Instant end = hour(4);
        String id = bookAndAwaitSchedule(s, 8, start, end, "SLURM");
        runDueAt(start.minus(Duration.ofMinutes(15)));
        fake.failNext(8);

        Instant at = end;
        for (int attempt = 1; attempt <= 8; attempt++) {
            runDueAt(at);
            Instant next = scheduled("cluster-teardown", id);
            if (next != null) {
                at = next;
            }
        }

        JsonNode failed = cluster(s, id);
        assertThat(failed.get("state").asString()).isEqualTo("FAILED");
        assertThat(failed.get("failureReason").asString())
                .startsWith(
                        "Teardown gave up: it failed 8 times; the last error: injected failure. What remains of the cluster on pool "
                                + s.pool() + " must be removed by an admin.");
        assertThat(failed.get("reservationStatus").asString()).isEqualTo("COMPLETED");
        assertThat(scheduled("cluster-teardown", id)).isNull();
        assertThat(events.ofType(ClusterTornDown.class))
                .filteredOn(e -> e.reservationId().toString().equals(id))
                .singleElement()
                .satisfies(e -> assertThat(e.complete()).isFalse());
    }
}
