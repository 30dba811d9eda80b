package dev.allot.provisioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.provisioning.driver.fake.FakeDriver;
import dev.allot.support.Api;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** On-demand health checks of a ready cluster's nodes, through the fake driver, which runs them. */
class HealthCheckApiTests extends LifecycleTest {

    @Autowired
    FakeDriver fake;

    @BeforeEach
    void resetTheFakeDriver() {
        fake.reset();
    }

    @Test
    void aMemberChecksTheNodesAndAFailingNodeDegradesTheClusterUntilACheckPasses() {
        Setup s = fleet(2);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 16, start, hour(4), "KUBERNETES");
        Instant ready = start.minus(Duration.ofMinutes(15));
        runDueAt(ready);
        String bad = s.nodes().get(0);
        fake.failHealthChecksOn(bad);

        Api.Response asked = api.post(
                path(s, id) + "/health-checks", s.token(), Map.of("kind", "NVIDIA_SMI"), "Idempotency-Key", "check-1");
        assertThat(asked.status()).as(asked.body()).isEqualTo(202);
        assertThat(asked.json().get("status").asString()).isEqualTo("QUEUED");
        String location = asked.header("Location");
        Api.Response again = api.post(
                path(s, id) + "/health-checks", s.token(), Map.of("kind", "NVIDIA_SMI"), "Idempotency-Key", "check-1");
        assertThat(again.status()).isEqualTo(202);
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(again.header("Location")).isEqualTo(location);

        runDueAt(ready.plusSeconds(60));

        JsonNode check = api.get(location, s.token()).json();
        assertThat(check.get("status").asString()).isEqualTo("FAILED");
        assertThat(check.get("results")
                        .valueStream()
                        .filter(r -> !r.get("passed").asBoolean())
                        .map(r -> r.get("node").asString()))
                .containsExactly(bad);
        JsonNode degraded = cluster(s, id);
        assertThat(degraded.get("state").asString()).isEqualTo("DEGRADED");
        // a hardware fault: quarantined at once, and with no free node in the pool the cluster stays DEGRADED
        assertThat(degraded.get("stateReason").asString())
                .isEqualTo("A health check failed on " + bad
                        + ": quarantined (hardware fault: NVIDIA_SMI: nvidia-smi failed: GPU 0: 2 uncorrected ECC errors); "
                        + "no spare or free node can replace it");
        assertThat(degraded.get("reservationStatus").asString()).isEqualTo("ACTIVE");
        assertThat(api.get("/api/v1/nodes/" + bad, adminToken())
                        .json()
                        .get("state")
                        .asString())
                .isEqualTo("QUARANTINED");
        // the node list says so too (before, it kept saying PASSED)
        assertThat(health(degraded, bad)).isEqualTo("QUARANTINED");
        assertThat(degraded.get("timeline")
                        .valueStream()
                        .map(e ->
                                e.get("step").asString() + " " + e.get("detail").asString()))
                .anyMatch(d -> d.startsWith("remediation Quarantined " + bad + " (hardware fault: NVIDIA_SMI"));

        fake.reset(); // the node is healthy again
        Api.Response recheck = api.post(path(s, id) + "/health-checks", s.token(), Map.of());
        runDueAt(ready.plusSeconds(120));
        assertThat(api.get(recheck.header("Location"), s.token())
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("PASSED");
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("READY");
        // billing credited the node from the failed check until the passing one (events are delivered after commit)
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(
                                jdbc.sql("""
				SELECT count(*) FROM node_degraded WHERE reservation_id = ?::uuid AND hostname = ?
				AND NOT upper_inf(during) AND upper(during) > lower(during)""").params(id, bad).query(Long.class).single())
                        .isEqualTo(1));
    }

    @Test
    void aSoftwareFaultRebootsTheNodeAndASecondFailureWithinTheCooldownQuarantinesAndReplacesIt() {
        Setup s = fleet(3);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 16, start, hour(4), "KUBERNETES");
        Instant ready = start.minus(Duration.ofMinutes(15));
        runDueAt(ready);
        List<String> booked = api.get(path(s, id), s.token())
                .json()
                .get("nodes")
                .valueStream()
                .map(JsonNode::asString)
                .toList();
        String flaky = booked.get(0);
        String free =
                s.nodes().stream().filter(n -> !booked.contains(n)).findFirst().orElseThrow();

        fake.failHealthChecksUntilRebootOn(flaky);
        api.post(path(s, id) + "/health-checks", s.token(), Map.of("kind", "DCGM_DIAG", "level", 2));
        runDueAt(ready.plusSeconds(60));
        assertThat(fake.rebooted()).containsExactly(flaky);
        JsonNode rebooting = cluster(s, id);
        assertThat(rebooting.get("state").asString()).isEqualTo("DEGRADED");
        assertThat(health(rebooting, flaky)).isEqualTo("REBOOTING");
        // an on-demand check queued: the nodes it will check show CHECKING until it has run
        Api.Response recheck = api.post(path(s, id) + "/health-checks", s.token(), Map.of("kind", "DCGM_DIAG"));
        assertThat(health(cluster(s, id), booked.get(1))).isEqualTo("CHECKING");
        runDueAt(ready.plusSeconds(120));
        assertThat(api.get(recheck.header("Location"), s.token())
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("PASSED");
        JsonNode passed = cluster(s, id);
        assertThat(passed.get("state").asString()).isEqualTo("READY");
        assertThat(passed.get("nodes").valueStream().map(n -> n.get("health").asString()))
                .containsOnly("PASSED");

        fake.failHealthChecksUntilRebootOn(flaky); // fails again within the cooldown: quarantined, replaced
        api.post(path(s, id) + "/health-checks", s.token(), Map.of("kind", "NVIDIA_SMI"));
        runDueAt(ready.plusSeconds(180));

        JsonNode replaced = cluster(s, id);
        assertThat(replaced.get("state").asString()).as(replaced.toString()).isEqualTo("READY");
        assertThat(replaced.get("nodes")
                        .valueStream()
                        .filter(n -> !n.get("health").asString().equals("REPLACED"))
                        .map(n -> n.get("hostname").asString()))
                .containsExactlyInAnyOrder(booked.get(1), free);
        assertThat(health(replaced, flaky)).isEqualTo("REPLACED");
        assertThat(api.get("/api/v1/nodes/" + flaky, adminToken())
                        .json()
                        .get("state")
                        .asString())
                .isEqualTo("QUARANTINED");
        assertThat(replaced.get("timeline")
                        .valueStream()
                        .map(e -> e.get("detail").asString()))
                .anyMatch(d ->
                        d.startsWith(flaky + " was taken out of service (failed again within PT24H of a remediation")
                                && d.contains("replaced by " + free + " in the running cluster"));
        assertThat(fake.clusters().get(UUID.fromString(id)).nodes()).containsExactlyInAnyOrder(booked.get(1), free);
    }

    @Test
    void aCheckThatFailsOnceAndPassesWhenRunAgainIsASoftwareFaultWhateverItPrintedAndTheNodeIsRebootedNotQuarantined() {
        Setup s = fleet(2);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 8, start, hour(4), "KUBERNETES");
        Instant ready = start.minus(Duration.ofMinutes(15));
        runDueAt(ready);
        String node = api.get(path(s, id), s.token()).json().get("nodes").get(0).asString();

        // the first run prints an uncorrected ECC error (a hardware-class output), the run after it a healthy one
        fake.failNextHealthCheckOn(node);
        long before = fake.calls().stream()
                .filter(c -> c.equals("health NVIDIA_SMI " + node))
                .count();
        Api.Response asked = api.post(path(s, id) + "/health-checks", s.token(), Map.of("kind", "NVIDIA_SMI"));
        runDueAt(ready.plusSeconds(60));

        JsonNode check = api.get(asked.header("Location"), s.token()).json();
        assertThat(check.get("status").asString()).as(check.toString()).isEqualTo("FAILED");
        JsonNode result = check.get("results").get(0);
        assertThat(result.get("fault").asString()).isEqualTo("SOFTWARE");
        assertThat(result.get("summary").asString())
                .endsWith("; it passed when run again, so the fault is a transient (software) one");
        assertThat(fake.calls().stream()
                                .filter(c -> c.equals("health NVIDIA_SMI " + node))
                                .count()
                        - before)
                .as("the check and its second run")
                .isEqualTo(2);
        assertThat(fake.rebooted()).containsExactly(node);
        assertThat(api.get("/api/v1/nodes/" + node, adminToken())
                        .json()
                        .get("state")
                        .asString())
                .isEqualTo("AVAILABLE");
    }

    @Test
    void anExporterReportsAHardwareXidAndTheNodeIsQuarantinedAndReplaced() {
        Setup s = fleet(3);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 16, start, hour(4), "KUBERNETES");
        runDueAt(start.minus(Duration.ofMinutes(15)));
        List<String> booked = api.get(path(s, id), s.token())
                .json()
                .get("nodes")
                .valueStream()
                .map(JsonNode::asString)
                .toList();
        String bad = booked.get(1);

        assertThat(api.post("/api/v1/nodes/" + bad + "/events", s.token(), Map.of("type", "XID", "xid", 79))
                        .status())
                .isEqualTo(403);
        assertThat(api.post("/api/v1/nodes/" + bad + "/events", adminToken(), Map.of("type", "XID"))
                        .status())
                .isEqualTo(400);
        Api.Response reported = api.post(
                "/api/v1/nodes/" + bad + "/events",
                adminToken(),
                Map.of("type", "XID", "xid", 79, "message", "GPU has fallen off the bus"));

        assertThat(reported.status()).as(reported.body()).isEqualTo(202);
        assertThat(reported.json().get("fault").asString()).isEqualTo("HARDWARE");
        assertThat(reported.json().get("action").asString()).isEqualTo("QUARANTINE");
        JsonNode cluster = cluster(s, id);
        assertThat(cluster.get("state").asString()).isEqualTo("READY");
        assertThat(cluster.get("nodes")
                        .valueStream()
                        .filter(n -> !n.get("health").asString().equals("REPLACED"))
                        .map(n -> n.get("hostname").asString()))
                .doesNotContain(bad)
                .hasSize(2);
        assertThat(health(cluster, bad)).isEqualTo("REPLACED");
        Api.Response corrected = api.post(
                "/api/v1/nodes/" + booked.get(0) + "/events",
                adminToken(),
                Map.of("type", "ECC", "uncorrectedErrors", 0));
        assertThat(corrected.json().get("action").asString()).isEqualTo("NONE");
    }

    @Test
    void twoNodesFailingAtOnceCompeteForOneFreeNodeOneGetsItTheOtherClusterStaysDegradedSayingWhy() {
        Setup s = fleet(3);
        Instant start = hour(3);
        String first = bookAndAwaitSchedule(s, 8, start, hour(4), "KUBERNETES");
        String second = bookAndAwaitSchedule(s, 8, start, hour(4), "KUBERNETES");
        runDueAt(start.minus(Duration.ofMinutes(15)));
        String a = api.get(path(s, first), s.token()).json().get("nodes").get(0).asString();
        String b =
                api.get(path(s, second), s.token()).json().get("nodes").get(0).asString();
        String free = s.nodes().stream()
                .filter(n -> !n.equals(a) && !n.equals(b))
                .findFirst()
                .orElseThrow();

        CompletableFuture<Api.Response> one = CompletableFuture.supplyAsync(() -> api.post(
                "/api/v1/nodes/" + a + "/events", adminToken(), Map.of("type", "ECC", "uncorrectedErrors", 3)));
        CompletableFuture<Api.Response> two = CompletableFuture.supplyAsync(() -> api.post(
                "/api/v1/nodes/" + b + "/events", adminToken(), Map.of("type", "ECC", "uncorrectedErrors", 3)));
        assertThat(one.join().status()).as(one.join().body()).isEqualTo(202);
        assertThat(two.join().status()).as(two.join().body()).isEqualTo(202);

        // the free node went to exactly one cluster
        assertOneGotTheOnlyReplacement(s, first, second, free);
    }

    @Test
    void aClusterThatIsNotReadyCannotBeCheckedAndAnotherTenantsCheckIsNotFound() {
        Setup s = fleet(1);
        Instant start = hour(3);
        String id = bookAndAwaitSchedule(s, 8, start, hour(4), "SLURM");

        Api.Response early = api.post(path(s, id) + "/health-checks", s.token(), Map.of());
        assertThat(early.status()).isEqualTo(409);
        assertThat(early.json().get("type").asString()).isEqualTo("https://allot.dev/problems/cluster_not_ready");

        runDueAt(start.minus(Duration.ofMinutes(15)));
        Api.Response asked = api.post(path(s, id) + "/health-checks", s.token(), Map.of("kind", "DCGM_DIAG"));
        assertThat(asked.status()).isEqualTo(202);
        Setup stranger = fleet(1);
        assertThat(api.get(asked.header("Location"), stranger.token()).status()).isEqualTo(404);
        assertThat(api.post(path(s, id) + "/health-checks", stranger.token(), Map.of())
                        .status())
                .isEqualTo(404);
        assertThat(api.post(path(s, id) + "/health-checks", tenantToken(s.tenant(), "VIEWER"), Map.of())
                        .status())
                .isEqualTo(403);
    }

    /** The health the cluster's node list gives the node. */
    private static String health(JsonNode cluster, String node) {
        return cluster.get("nodes")
                .valueStream()
                .filter(n -> n.get("hostname").asString().equals(node))
                .map(n -> n.get("health").asString())
                .findFirst()
                .orElseThrow(() -> new AssertionError(node + " not listed"));
    }
}
