package dev.allot.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.booking.events.ReservationFailed;
import dev.allot.inventory.events.NodeStateChanged;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.DriverTimeoutException;
import dev.allot.provisioning.driver.fake.FakeDriver;
import dev.allot.support.Api;
import dev.allot.support.RecordedEvents;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** The lifecycle with the fake driver (the default of a pool with no driver configured), step by step. */
class ClusterLifecycleTests extends LifecycleTest {

    @Autowired
    FakeDriver fake;

    @Autowired
    RecordedEvents events;

    @BeforeEach
    void resetTheFakeDriver() {
        fake.reset();
    }

    @Test
    void aBookedClusterIsBuiltALeadTimeBeforeTheWindowAndTornDownAtItsEnd() {
        Setup s = fleet(2);
        Instant start = hour(3);
        Instant end = hour(5);
        String id = bookAndAwaitSchedule(s, 16, start, end, "KUBERNETES");

        JsonNode pending = cluster(s, id);
        assertThat(pending.get("state").asString()).isEqualTo("PENDING");
        assertThat(Instant.parse(pending.get("provisionAt").asString())).isEqualTo(start.minus(Duration.ofMinutes(15)));
        assertThat(scheduled("cluster-provision", id)).isEqualTo(start.minus(Duration.ofMinutes(15)));
        assertThat(scheduled("cluster-teardown", id)).isEqualTo(end);

        runDueAt(start.minus(Duration.ofMinutes(16)));
        assertThat(fake.calls()).isEmpty();
        assertThat(reservationStatus(s, id)).isEqualTo("CONFIRMED");

        runDueAt(start.minus(Duration.ofMinutes(15)));
        JsonNode ready = cluster(s, id);
        assertThat(ready.get("state").asString()).isEqualTo("READY");
        assertThat(ready.get("reservationStatus").asString()).isEqualTo("ACTIVE");
        assertThat(reservationStatus(s, id)).isEqualTo("ACTIVE");
        assertThat(ready.get("endpoints").get("other").asString()).isEqualTo("fake://allot-" + id);
        assertThat(ready.get("nodes").valueStream().map(n -> n.get("health").asString()))
                .containsExactly("PASSED", "PASSED");
        assertThat(timeline(ready))
                .containsExactly(
                        "schedule SCHEDULED PENDING",
                        "provision STARTED CREATING",
                        "provision PROGRESSED INSTALLING_DRIVERS",
                        "provision PROGRESSED INSTALLING_DRIVERS",
                        "provision PROGRESSED RUNNING_ACCEPTANCE_TESTS",
                        "provision SUCCEEDED READY");
        // the timeline says what the driver did, and where to see it; the fake driver builds nothing and says so
        List<String> details = ready.get("timeline")
                .valueStream()
                .map(e -> e.get("detail").asString())
                .toList();
        assertThat(details.get(3))
                .startsWith("Simulated KUBERNETES cluster held in memory on ")
                .endsWith("(fake driver: nothing is built, no CUDA driver is pinned) (see: this Allot instance only).");
        assertThat(details.get(4)).isEqualTo("The driver reads every part it built back from the KUBERNETES cluster.");
        assertThat(String.join("\n", details)).doesNotContain("/dev/shm", "selected on every node");
        assertThat(fake.clusters()).containsKey(UUID.fromString(id));
        assertThat(events.ofType(ClusterReady.class))
                .filteredOn(e -> e.reservationId().toString().equals(id))
                .singleElement()
                .satisfies(e -> assertThat(e.gpus()).isEqualTo(16));
        assertThat(listed(s, "ACTIVE")).containsExactly(id);
        assertThat(listed(s, "CONFIRMED")).isEmpty();

        runDueAt(end);
        JsonNode deleted = cluster(s, id);
        assertThat(deleted.get("state").asString()).isEqualTo("DELETED");
        assertThat(deleted.get("reservationStatus").asString()).isEqualTo("COMPLETED");
        assertThat(deleted.get("tornDownAt").isNull()).isFalse();
        assertThat(timeline(deleted)).endsWith("teardown STARTED DELETING", "teardown SUCCEEDED DELETED");
        assertThat(fake.clusters()).doesNotContainKey(UUID.fromString(id));
        assertThat(events.ofType(ClusterTornDown.class))
                .filteredOn(e -> e.reservationId().toString().equals(id))
                .singleElement()
                .satisfies(e -> assertThat(e.complete()).isTrue());
        assertThat(scheduled("cluster-provision", id)).isNull();
        assertThat(scheduled("cluster-teardown", id)).isNull();
        assertThat(listed(s, "COMPLETED")).containsExactly(id);
        System.out.printf(
                "Lifecycle on the fake driver: provision step %d ms, teardown step %d ms%n",
                took(deleted, "provision").toMillis(), took(deleted, "teardown").toMillis());
    }

    private List<String> listed(Setup s, String status) {
        return api.get("/api/v1/tenants/" + s.tenant() + "/reservations?status=" + status, s.token())
                .json()
                .get("items")
                .valueStream()
                .map(r -> r.get("id").asString())
                .toList();
    }

    @Test
    void aTransientDriverFailureIsRetriedWithExponentialBackoffThenSucceeds() {
        Setup s = fleet(1);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 8, start, hour(4), "SLURM");
        Instant first = start.minus(Duration.ofMinutes(15));
        fake.failNext(2);

        runDueAt(first);
        assertThat(scheduled("cluster-provision", id)).isEqualTo(first.plusSeconds(30));
        runDueAt(first.plusSeconds(30));
        assertThat(scheduled("cluster-provision", id)).isEqualTo(first.plusSeconds(30 + 60));
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("CREATING");
        assertThat(reservationStatus(s, id)).isEqualTo("PROVISIONING");

        runDueAt(first.plusSeconds(30 + 60));
        JsonNode ready = cluster(s, id);
        assertThat(ready.get("state").asString()).isEqualTo("READY");
        List<JsonNode> retries = ready.get("timeline")
                .valueStream()
                .filter(e -> e.get("outcome").asString().equals("RETRYING"))
                .toList();
        assertThat(retries).extracting(e -> e.get("attempt").asInt()).containsExactly(1, 2);
        assertThat(retries.get(1).get("detail").asString())
                .contains("Attempt 2 of 5 failed: injected failure", "next attempt runs at " + first.plusSeconds(90));
        assertThat(fake.calls()).filteredOn(c -> c.startsWith("provision")).hasSize(3);
    }

    @Test
    void aPermanentFailureFailsTheReservationReleasesItsNodesAndSaysWhy() {
        Setup s = fleet(1);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 8, start, hour(5), "KUBERNETES");
        fake.failNext(1, () -> new DriverFailedException("the cluster refused the namespace quota", false));

        runDueAt(start.minus(Duration.ofMinutes(15)));

        JsonNode failed = cluster(s, id);
        assertThat(failed.get("state").asString()).isEqualTo("FAILED");
        assertThat(failed.get("failureReason").asString()).isEqualTo("the cluster refused the namespace quota");
        Api.Response reservation = api.get(path(s, id), s.token());
        assertThat(reservation.json().get("status").asString()).isEqualTo("FAILED");
        assertThat(reservation.json().get("failureReason").asString())
                .isEqualTo("the cluster refused the namespace quota");
        assertThat(activeAllocations(id)).isZero();
        assertThat(listed(s, "FAILED")).containsExactly(id);
        assertThat(events.ofType(ReservationFailed.class))
                .filteredOn(e -> e.reservationId().toString().equals(id))
                .singleElement()
                .satisfies(e -> assertThat(e.freedFrom()).isEqualTo(start));
        assertThat(jdbc.sql("SELECT count(*) FROM quota_usage WHERE reservation_id = ?::uuid")
                        .param(id)
                        .query(Long.class)
                        .single())
                .isZero();

        // The node is bookable again for the same window, by another tenant.
        Setup other = setup(1, s.nodes(), s.pool(), s.gpuType());
        assertThat(book(other, 8, start, hour(5), "SLURM").status()).isEqualTo(201);

        // The cleanup runs at once and leaves the cluster FAILED, with nothing on the driver.
        runDueAt(start.minus(Duration.ofMinutes(14)));
        JsonNode cleaned = cluster(s, id);
        assertThat(cleaned.get("state").asString()).isEqualTo("FAILED");
        assertThat(timeline(cleaned))
                .endsWith("provision GAVE_UP FAILED", "teardown STARTED FAILED", "teardown SUCCEEDED FAILED");
        assertThat(fake.clusters()).doesNotContainKey(UUID.fromString(id));
    }

    @Test
    void provisioningGivesUpWhenItsAttemptsAreUsedUp() {
        Setup s = fleet(1);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 8, start, hour(4), "SLURM");
        fake.failNext(5);

        Instant at = start.minus(Duration.ofMinutes(15));
        for (int attempt = 1; attempt <= 5; attempt++) {
            runDueAt(at);
            Instant next = scheduled("cluster-provision", id);
            if (next != null) {
                at = next;
            }
        }

        JsonNode failed = cluster(s, id);
        assertThat(failed.get("state").asString()).isEqualTo("FAILED");
        assertThat(failed.get("failureReason").asString())
                .isEqualTo("Provisioning failed 5 times; the last error: injected failure");
        assertThat(reservationStatus(s, id)).isEqualTo("FAILED");
        assertThat(activeAllocations(id)).isZero();
        assertThat(scheduled("cluster-provision", id)).isNull();
    }

    @Test
    void aReservedNodeQuarantinedJustBeforeProvisioningFailsTheReservationNamingTheNode() {
        Setup s = fleet(1);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 8, start, hour(4), "SLURM");
        String node = s.nodes().getFirst();
        assertThat(api.post("/api/v1/nodes/" + node + "/quarantine", adminToken(), Map.of("reason", "ECC errors"))
                        .status())
                .isEqualTo(200);
        // the admin's quarantine looks for a node to replace it (there is none) once it has committed: let that end
        awaitListenersDone(NodeStateChanged.class, node);

        runDueAt(start.minus(Duration.ofMinutes(15)));

        JsonNode failed = cluster(s, id);
        assertThat(failed.get("state").asString()).isEqualTo("FAILED");
        assertThat(failed.get("failureReason").asString()).contains(node + " is QUARANTINED (ECC errors)");
        assertThat(fake.calls()).noneMatch(c -> c.startsWith("provision"));
    }

    @Test
    void aNodeAnAdminQuarantinesIsReplacedInTheLaterReservationHoldingItAndTheClusterIsBuiltOnTheOther() {
        Setup s = fleet(2);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 8, start, hour(4), "SLURM");
        String node = api.get(path(s, id), s.token()).json().get("nodes").get(0).asString();
        String other =
                s.nodes().stream().filter(n -> !n.equals(node)).findFirst().orElseThrow();

        assertThat(api.post("/api/v1/nodes/" + node + "/quarantine", adminToken(), Map.of("reason", "fan failure"))
                        .status())
                .isEqualTo(200);

        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> api.get(path(s, id), s.token())
                        .json()
                        .get("nodes")
                        .valueStream()
                        .map(JsonNode::asString)
                        .toList()
                        .equals(List.of(other)));
        assertThat(activeAllocations(id)).isEqualTo(1);
        assertThat(timeline(cluster(s, id))).contains("remediation ACTED PENDING");
        assertThat(cluster(s, id)
                        .get("timeline")
                        .valueStream()
                        .map(e -> e.get("detail").asString()))
                .contains(node + " was taken out of service (taken out of service by an admin: fan failure): this "
                        + "reservation moves to " + other + ".");

        runDueAt(start.minus(Duration.ofMinutes(15)));
        JsonNode ready = cluster(s, id);
        assertThat(ready.get("state").asString()).isEqualTo("READY");
        assertThat(fake.clusters().get(UUID.fromString(id)).nodes()).containsExactly(other);
    }

    @Test
    void cancellingDuringProvisioningTearsDownWhatWasBuilt() {
        Setup s = fleet(2);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 16, start, hour(5), "KUBERNETES");
        // The driver builds the cluster, but its answer is lost: the step is to be retried, the cluster exists.
        fake.loseNextReplies(1);
        runDueAt(start.minus(Duration.ofMinutes(15)));
        assertThat(fake.clusters()).containsKey(UUID.fromString(id));
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("CREATING");

        assertThat(api.post(path(s, id) + "/cancel", s.token(), Map.of()).status())
                .isEqualTo(200);
        Instant cancelledAt = now();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
            Instant teardown = scheduled("cluster-teardown", id);
            return teardown != null && !teardown.isAfter(cancelledAt.plusSeconds(5));
        });
        assertThat(scheduled("cluster-provision", id)).isNull();

        runDueAt(now().plusSeconds(5));

        JsonNode deleted = cluster(s, id);
        assertThat(deleted.get("state").asString()).isEqualTo("DELETED");
        assertThat(deleted.get("reservationStatus").asString()).isEqualTo("CANCELLED");
        assertThat(fake.clusters()).doesNotContainKey(UUID.fromString(id));
        assertThat(events.ofType(ClusterReady.class))
                .noneMatch(e -> e.reservationId().toString().equals(id));
        assertThat(timeline(deleted)).endsWith("teardown STARTED DELETING", "teardown SUCCEEDED DELETED");
    }

    @Test
    void aDriverTimeoutIsRetriedLikeAnyTransientFailure() {
        Setup s = fleet(1);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 8, start, hour(4), "SLURM");
        Instant first = start.minus(Duration.ofMinutes(15));
        fake.failNext(1, () -> new DriverTimeoutException("provision allot-" + id, Duration.ofMinutes(2)));

        runDueAt(first);
        JsonNode retrying = cluster(s, id);
        assertThat(timeline(retrying)).last().isEqualTo("provision RETRYING CREATING");
        assertThat(retrying.get("timeline")
                        .get(retrying.get("timeline").size() - 1)
                        .get("detail")
                        .asString())
                .contains("did not finish within PT2M");

        runDueAt(first.plusSeconds(30));
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("READY");
    }

    @Test
    void aNodeFailingItsAcceptanceTestWithNoReplacementHandsTheClusterOverDegradedNamingTheNodeAndWhy() {
        Setup s = fleet(2);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 16, start, hour(4), "KUBERNETES");
        String bad = s.nodes().get(1);
        fake.failHealthChecksOn(bad);

        runDueAt(start.minus(Duration.ofMinutes(15)));

        JsonNode degraded = cluster(s, id);
        assertThat(degraded.get("state").asString()).isEqualTo("DEGRADED");
        assertThat(degraded.get("stateReason").asString())
                .isEqualTo("A health check failed on " + bad + " before handover");
        assertThat(degraded.get("nodes")
                        .valueStream()
                        .filter(n -> n.get("hostname").asString().equals(bad))
                        .map(n -> n.get("health").asString() + " "
                                + n.get("detail").asString()))
                .containsExactly("FAILED NVIDIA_SMI: nvidia-smi failed: GPU 0: 2 uncorrected ECC errors");
        assertThat(degraded.get("nodes")
                        .valueStream()
                        .filter(n -> !n.get("hostname").asString().equals(bad))
                        .map(n -> n.get("health").asString()))
                .containsExactly("PASSED");
        assertThat(reservationStatus(s, id)).isEqualTo("ACTIVE");
        assertThat(timeline(degraded)).last().isEqualTo("provision SUCCEEDED DEGRADED");
        // billing credits the failed node from handover on, until it passes a check or is replaced
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(jdbc.sql(
                                        "SELECT count(*) FROM node_degraded WHERE reservation_id = ?::uuid AND hostname = ? AND upper_inf(during)")
                                .params(id, bad)
                                .query(Long.class)
                                .single())
                        .isEqualTo(1));
    }

    @Test
    void aNodeFailingItsAcceptanceTestIsReplacedByAFreeNodeBeforeHandover() {
        Setup s = fleet(3);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 16, start, hour(4), "KUBERNETES");
        List<String> booked = api.get(path(s, id), s.token())
                .json()
                .get("nodes")
                .valueStream()
                .map(JsonNode::asString)
                .toList();
        String bad = booked.get(1);
        String spare =
                s.nodes().stream().filter(n -> !booked.contains(n)).findFirst().orElseThrow();
        fake.failHealthChecksOn(bad);

        runDueAt(start.minus(Duration.ofMinutes(15)));

        JsonNode ready = cluster(s, id);
        assertThat(ready.get("state").asString()).as(ready.toString()).isEqualTo("READY");
        assertThat(ready.get("nodes")
                        .valueStream()
                        .map(n -> n.get("hostname").asString() + " "
                                + n.get("health").asString()))
                .containsExactlyInAnyOrder(booked.get(0) + " PASSED", spare + " PASSED", bad + " REPLACED");
        assertThat(ready.get("timeline").valueStream().map(e -> e.get("detail").asString()))
                .contains(bad + " failed acceptance (NVIDIA_SMI: nvidia-smi failed: GPU 0: 2 uncorrected ECC errors): "
                        + "replaced by " + spare + " before handover.");
        assertThat(api.get(path(s, id), s.token())
                        .json()
                        .get("nodes")
                        .valueStream()
                        .map(JsonNode::asString))
                .containsExactlyInAnyOrder(booked.get(0), spare);
        assertThat(fake.clusters().get(UUID.fromString(id)).nodes()).containsExactlyInAnyOrder(booked.get(0), spare);
        assertThat(activeAllocations(id)).isEqualTo(2);
        assertThat(reservationStatus(s, id)).isEqualTo("ACTIVE");
        // the node it left is not handed to the next tenant: uncorrected ECC errors are a hardware fault
        JsonNode left = api.get("/api/v1/nodes/" + bad, adminToken()).json();
        assertThat(left.get("state").asString()).as(left.toString()).isEqualTo("QUARANTINED");
        assertThat(ready.get("timeline").valueStream().map(e -> e.get("detail").asString()))
                .anyMatch(detail -> detail.startsWith("Quarantined " + bad + " (hardware fault: NVIDIA_SMI"));
    }

    @Test
    void cancellingBeforeProvisioningClosesTheClusterWithoutCallingTheDriver() {
        Setup s = fleet(1);
        String id = bookAndAwaitSchedule(s, 8, hour(3), hour(4), "SLURM");

        assertThat(api.post(path(s, id) + "/cancel", s.token(), Map.of()).status())
                .isEqualTo(200);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> scheduled("cluster-provision", id) == null);
        runDueAt(now().plusSeconds(5));

        JsonNode closed = cluster(s, id);
        assertThat(closed.get("state").asString()).isEqualTo("DELETED");
        assertThat(closed.get("timeline")
                        .get(closed.get("timeline").size() - 1)
                        .get("detail")
                        .asString())
                .isEqualTo("Nothing had been built: nothing to remove.");
        assertThat(fake.calls()).isEmpty();
        assertThat(events.ofType(ClusterTornDown.class))
                .noneMatch(e -> e.reservationId().toString().equals(id));
    }
}
