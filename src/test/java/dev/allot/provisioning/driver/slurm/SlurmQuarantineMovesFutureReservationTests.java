package dev.allot.provisioning.driver.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.support.Api;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A node quarantined (an exporter reports a hardware Xid) while a tenant holds it in a reservation that starts
 * later, on the real slurmctld ({@link SlurmCluster}): the reservation moves, in one transaction, to a free node as
 * close to the nodes it keeps as one can be had, and its Slurm reservation is built on the new node; when no node is
 * free the tenant is notified. The nodes (gpu-009 to gpu-016 point at no slurmd: Slurm holds them DOWN) run no job,
 * so this context runs no check before handover.
 */
class SlurmQuarantineMovesFutureReservationTests extends SlurmStandInTest {

    private static final String SUFFIX =
            Long.toString(ThreadLocalRandom.current().nextLong(1L << 30, 1L << 35), 36);

    private static final String MOVES = "slurm-move-" + SUFFIX;

    private static final String FULL = "slurm-full-" + SUFFIX;

    @DynamicPropertySource
    static void slurmPools(DynamicPropertyRegistry registry) throws IOException {
        newRecordings("moves");
        for (String pool : List.of(MOVES, FULL)) {
            SlurmCluster.standInPool(registry, pool, () -> slurm.slurmConf(), recordings);
        }
        registry.add("allot.provisioning.health.acceptance", () -> "");
    }

    /** A pool whose nodes sit where the test says: {@code hostname, InfiniBand block, rack} each. */
    private Setup poolWithTopology(String pool, List<List<String>> nodes) {
        String type = newGpuType();
        setRateCard(type);
        assertThat(api.post(
                                "/api/v1/pools",
                                adminToken(),
                                Map.of("name", pool, "gpuType", type, "gpusPerNode", 8, "region", "eu-test-1"))
                        .status())
                .isEqualTo(201);
        for (List<String> node : nodes) {
            assertThat(api.post(
                                    "/api/v1/pools/" + pool + "/nodes",
                                    adminToken(),
                                    Map.of(
                                            "hostname",
                                            node.get(0),
                                            "ibBlock",
                                            node.get(1),
                                            "rack",
                                            node.get(2),
                                            "cudaDrivers",
                                            List.of("550.54")))
                            .status())
                    .isEqualTo(201);
        }
        return setup(nodes.size(), nodes.stream().map(List::getFirst).toList(), pool, type);
    }

    private Api.Response hardwareXid(String node) {
        return api.post(
                "/api/v1/nodes/" + node + "/events",
                adminToken(),
                Map.of("type", "XID", "xid", 79, "message", "GPU has fallen off the bus"));
    }

    private void release(String node) {
        Api.Response released =
                api.post("/api/v1/nodes/" + node + "/release", adminToken(), Map.of("reason", "GPU reseated"));
        assertThat(released.status()).as(released.body()).isEqualTo(200);
    }

    private long activeAllocationsOf(String reservationId, String node) {
        return jdbc.sql("""
				SELECT count(*) FROM allocation a JOIN node n ON n.id = a.node_id
				WHERE a.reservation_id = ?::uuid AND n.hostname = ? AND a.active""").params(reservationId, node).query(Long.class).single();
    }

    @Test
    void aFutureReservationMovesOffAQuarantinedNodeToAFreeNodeOfItsBlockAndSlurmReservesThatNode() {
        // gpu-009 alone in block ib-a (searched first by a booking); gpu-010, gpu-011 and gpu-013 in ib-b
        Setup s = poolWithTopology(
                MOVES,
                List.of(
                        List.of("gpu-009", "ib-a", "a1"),
                        List.of("gpu-010", "ib-b", "b1"),
                        List.of("gpu-011", "ib-b", "b1"),
                        List.of("gpu-013", "ib-b", "b2")));
        Instant start = hour(3);
        Instant end = hour(4);
        String id = bookAndAwaitSchedule(s, 16, start, end, "SLURM");
        assertThat(booked(s, id)).containsExactlyInAnyOrder("gpu-010", "gpu-011");
        try {
            Api.Response reported = hardwareXid("gpu-010");

            assertThat(reported.status()).as(reported.body()).isEqualTo(202);
            assertThat(reported.json().get("action").asString()).isEqualTo("QUARANTINE");
            // moved to the free node of the block it keeps a node in, not to the first free node a booking finds
            assertThat(booked(s, id)).containsExactlyInAnyOrder("gpu-011", "gpu-013");
            assertThat(activeAllocationsOf(id, "gpu-013")).isEqualTo(1);
            assertThat(activeAllocationsOf(id, "gpu-010")).isZero();
            assertThat(activeAllocations(id)).isEqualTo(2);
            JsonNode moved = cluster(s, id);
            assertThat(moved.get("state").asString()).isEqualTo("PENDING");
            assertThat(details(moved))
                    .contains("gpu-010 was taken out of service (hardware fault: Xid 79 (GPU has "
                            + "fallen off the bus) reported by an exporter): this reservation moves to gpu-013.");
            assertThat(jdbc.sql(
                                    "SELECT count(*) FROM audit_event WHERE action = 'reservation.node-replaced' AND object_id = ?")
                            .param(id)
                            .query(Long.class)
                            .single())
                    .isEqualTo(1);

            runDueAt(start.minus(Duration.ofMinutes(15)));

            JsonNode ready = cluster(s, id);
            assertThat(ready.get("state").asString()).as(ready.toString()).isEqualTo("READY");
            assertThat(ready.get("nodes")
                            .valueStream()
                            .filter(n -> !n.get("health").asString().equals("REPLACED"))
                            .map(n -> n.get("hostname").asString()))
                    .containsExactlyInAnyOrder("gpu-011", "gpu-013");
            SlurmRecord reservation =
                    SlurmRecord.parse(slurm.run("scontrol", "show", "reservation", "allot-" + id, "--oneliner")
                            .stdout());
            assertThat(slurm.driver().hostnames(reservation.get("Nodes")))
                    .containsExactlyInAnyOrder("gpu-011", "gpu-013");
            assertThat(Instant.ofEpochSecond(Long.parseLong(reservation.get("StartTime"))))
                    .isEqualTo(start);
        } finally {
            release("gpu-010");
        }

        runDueAt(end);
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("DELETED");
        assertThat(slurm.run("scontrol", "show", "reservation", "allot-" + id).exitCode())
                .isNotZero();
    }

    @Test
    void whenNoNodeCanTakeTheQuarantinedNodesPlaceTheTenantIsNotifiedAndTheReservationFailsAtProvisioning() {
        Setup s = poolWithTopology(FULL, List.of(List.of("gpu-014", "ib-a", "a1"), List.of("gpu-015", "ib-a", "a1")));
        Instant start = hour(6);
        String id = bookAndAwaitSchedule(s, 8, start, hour(7), "SLURM");
        String other = bookAndAwaitSchedule(s, 8, start, hour(7), "SLURM");
        String node = booked(s, id).getFirst();
        try {
            assertThat(hardwareXid(node).status()).isEqualTo(202);

            assertThat(booked(s, id)).containsExactly(node);
            assertThat(details(cluster(s, id)))
                    .anyMatch(d ->
                            d.startsWith("A health check failed on " + node + ": quarantined (hardware fault: Xid 79")
                                    && d.endsWith("no spare or free node can replace it."));
            String admin = tenantToken(s.tenant(), "TENANT_ADMIN");
            JsonNode notice = await().atMost(Duration.ofSeconds(60))
                    .until(() -> notices(s.tenant(), admin, "NODE_NOT_REPLACED"), found -> found != null);
            assertThat(notice.get("message").asString())
                    .isEqualTo("Node " + node + " of reservation " + id
                            + " in pool " + FULL
                            + " was taken out of service (hardware fault: Xid 79 (GPU has fallen off the "
                            + "bus) reported by an exporter) and no spare or free node can take its place: the reservation "
                            + "still holds it; unless a node is freed before the window starts, provisioning fails and nothing "
                            + "is charged: cancel it or book another window.");
            assertThat(notice.get("details").get("reservationId").asString()).isEqualTo(id);
            assertThat(notice.get("details").get("live").asBoolean()).isFalse();
            assertThat(booked(s, other)).doesNotContain(node);

            runDueAt(start.minus(Duration.ofMinutes(15)));

            assertThat(reservationStatus(s, id)).isEqualTo("FAILED");
            assertThat(cluster(s, other).get("state").asString()).isEqualTo("READY");
            assertThat(slurm.run("scontrol", "show", "reservation", "allot-" + id)
                            .exitCode())
                    .isNotZero();
        } finally {
            release(node);
        }
        runDueAt(hour(7));
        assertThat(cluster(s, other).get("state").asString()).isEqualTo("DELETED");
    }

    private JsonNode notices(String tenant, String token, String kind) {
        Map<String, JsonNode> byKind = new HashMap<>();
        api.get("/api/v1/tenants/" + tenant + "/notifications", token)
                .json()
                .get("items")
                .valueStream()
                .forEach(n -> byKind.put(n.get("kind").asString(), n));
        return byKind.get(kind);
    }
}
