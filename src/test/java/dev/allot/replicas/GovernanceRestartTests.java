package dev.allot.replicas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.support.Api;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Governance across a crash (issue 31): a booking waiting for approval and one waiting in a pool's queue are rows,
 * so {@code kill -9} of the only Allot process loses neither. A new process on the same database (on the same
 * address, so the tokens issued before stay valid) shows both as they were, and resumes both: the approval is
 * decided, and the queued booking is booked as soon as a cancel frees its node.
 */
class GovernanceRestartTests {

    private ScratchDatabase database;

    private Replica running;

    @AfterEach
    void stop() throws Exception {
        if (running != null) {
            running.close();
        }
        if (database != null) {
            database.drop();
        }
    }

    @Test
    void aPendingApprovalAndAQueuedBookingSurviveAKilledProcessAndResumeInTheNextOne() throws Exception {
        database = ScratchDatabase.create("allot_restart_");
        String url = database.url();
        Path logs = Path.of("target", "restart").toAbsolutePath();
        int port = Replica.freePort();
        String publicUrl = "http://127.0.0.1:" + port;
        List<String> settings = List.of("--db-scheduler.polling-interval=1s", "--server.shutdown=immediate");
        running = Replica.start(
                        "before-the-crash",
                        port,
                        publicUrl,
                        url,
                        database.username(),
                        database.password(),
                        logs,
                        settings)
                .awaitReady(Duration.ofMinutes(5));

        // one pool of one node; a team that needs approval above 100 GPU-hours, and a second team
        ReplicaFleet fleet = new ReplicaFleet(running.api());
        String type = fleet.gpuType();
        fleet.pool("restart-pool", type, 1);
        ReplicaFleet.Tenant holder = fleet.tenant(type, 8, 8);
        ReplicaFleet.Tenant waiter = fleet.tenant(type, 0, 8);
        Api api = running.api();
        assertThat(api.put(
                                "/api/v1/tenants/" + holder.slug() + "/quota",
                                fleet.adminToken(),
                                Map.of(
                                        "policies",
                                        List.of(Map.of(
                                                "gpuType",
                                                type,
                                                "guaranteedGpus",
                                                8,
                                                "maxGpus",
                                                8,
                                                "burst",
                                                false,
                                                "maxWindow",
                                                "P30D",
                                                "maxAdvance",
                                                "P60D",
                                                "priority",
                                                "TRAINING",
                                                "approval",
                                                Map.of("aboveGpuHours", 100)))))
                        .status())
                .isEqualTo(200);

        Instant day = Instant.now().truncatedTo(ChronoUnit.DAYS).plus(Duration.ofDays(2));
        Instant start = day.plus(Duration.ofHours(9));
        Api.Response first = api.post(
                holder.reservations(),
                holder.token(),
                ReplicaFleet.booking("restart-pool", 8, start, start.plus(Duration.ofHours(2))));
        assertThat(first.status()).as(first.toString()).isEqualTo(201);
        Map<String, Object> queueing =
                new HashMap<>(ReplicaFleet.booking("restart-pool", 8, start, start.plus(Duration.ofHours(2))));
        queueing.put("whenUnavailable", "QUEUE");
        queueing.put(
                "startWindow",
                Map.of(
                        "earliest",
                        start.toString(),
                        "latest",
                        start.plus(Duration.ofHours(1)).toString()));
        Api.Response queued = api.post(waiter.reservations(), waiter.token(), queueing);
        assertThat(queued.status()).as(queued.toString()).isEqualTo(202);
        assertThat(queued.json().get("status").asString()).isEqualTo("QUEUED");
        Instant later = day.plus(Duration.ofDays(1));
        Api.Response pending = api.post(
                holder.reservations(),
                holder.token(),
                ReplicaFleet.booking("restart-pool", 8, later, later.plus(Duration.ofHours(24))));
        assertThat(pending.status()).as(pending.toString()).isEqualTo(201);
        assertThat(pending.json().get("status").asString()).isEqualTo("PENDING_APPROVAL");
        String firstId = first.json().get("id").asString();
        String queuedId = queued.json().get("id").asString();
        String pendingId = pending.json().get("id").asString();

        // the only process dies without a chance to finish anything; a new one starts on the same database
        running.kill();
        running = Replica.start(
                        "after-the-crash",
                        port,
                        publicUrl,
                        url,
                        database.username(),
                        database.password(),
                        logs,
                        settings)
                .awaitReady(Duration.ofMinutes(5));
        Api after = running.api();

        // both are as they were: the queued booking first in its pool's queue, the other still waiting for approval
        assertThat(status(after, waiter, queuedId)).isEqualTo("QUEUED");
        JsonNode queue = after.get("/api/v1/pools/restart-pool/queue", fleet.adminToken())
                .json();
        assertThat(queue.get("items")
                        .valueStream()
                        .map(i ->
                                i.get("id").asString() + "@" + i.get("position").asInt()))
                .containsExactly(queuedId + "@1");
        assertThat(status(after, holder, pendingId)).isEqualTo("PENDING_APPROVAL");

        // and both resume: the approval is decided, and the cancel's freed node books the queued booking
        Api.Response approved = after.post(
                holder.reservations() + "/" + pendingId + "/approve",
                fleet.adminToken(),
                Map.of("reason", "after the restart"));
        assertThat(approved.status()).as(approved.toString()).isEqualTo(200);
        assertThat(status(after, holder, pendingId)).isEqualTo("CONFIRMED");
        assertThat(after.post(holder.reservations() + "/" + firstId + "/cancel", holder.token(), Map.of())
                        .status())
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> status(after, waiter, queuedId).equals("CONFIRMED"));
        JsonNode booked = after.get(waiter.reservations() + "/" + queuedId, waiter.token())
                .json();
        assertThat(booked.get("nodes").valueStream().map(JsonNode::asString)).containsExactly("restart-pool-n0");
    }

    private static String status(Api api, ReplicaFleet.Tenant tenant, String id) {
        Api.Response response = api.get(tenant.reservations() + "/" + id, tenant.token());
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json().get("status").asString();
    }
}
