package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.billing.idle.IdleReclaimer;
import dev.allot.support.Api;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The idleReclaim policy on real PostgreSQL. db-scheduler runs the same passes on its own as the clock moves;
 * the tests call a pass themselves and check what is stored, whichever of the two did it.
 */
class IdleReclaimTests extends BillingTest {

    @Autowired
    IdleReclaimer reclaimer;

    @Test
    void onlyAPlatformAdminSetsThePolicyItIsAuditedAndBadInputNamesTheField() {
        Setup s = setup(1, 8, 8, false);
        String path = path(s, "/idle-reclaim");
        assertThat(api.get(path, s.token()).json().get("mode").asString()).isEqualTo("OFF");

        assertThat(api.put(path, s.token(), Map.of("mode", "NOTIFY", "afterHours", 4))
                        .status())
                .isEqualTo(403);
        assertRefused(api.put(path, adminToken(), Map.of("mode", "SOMETIMES")), "mode");
        assertRefused(api.put(path, adminToken(), Map.of("mode", "RELEASE", "afterHours", 4)), "noticeMinutes");
        assertRefused(api.put(path, adminToken(), Map.of("mode", "NOTIFY", "afterHours", 0)), "afterHours");
        assertThat(api.get(path, s.token()).json().get("mode").asString()).isEqualTo("OFF");

        Api.Response set = api.put(path, adminToken(), Map.of("mode", "release", "afterHours", 4, "noticeMinutes", 30));

        assertThat(set.status()).as(set.body()).isEqualTo(200);
        Api.Response read = api.get(path, s.token());
        assertThat(read.json().get("mode").asString()).isEqualTo("RELEASE");
        assertThat(read.json().get("afterHours").asInt()).isEqualTo(4);
        assertThat(read.json().get("noticeMinutes").asInt()).isEqualTo(30);
        assertThat(jdbc.sql("SELECT count(*) FROM audit_event WHERE action = 'idle-reclaim.updated' AND object_id = ?")
                        .param(s.tenant())
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
    }

    @Test
    void anIdleReservationIsNoticedThenReleasedThroughTheCancelPathAndBillingStopsThere() {
        Booked b = bookOneNode();
        Setup s = b.s();
        Instant start = b.start();
        UUID id = b.id();
        String node = b.node();
        assertThat(api.put(
                                path(s, "/idle-reclaim"),
                                adminToken(),
                                Map.of("mode", "RELEASE", "afterHours", 2, "noticeMinutes", 30))
                        .status())
                .isEqualTo(200);

        // idle from the start: flagged with idle since minute 20 once the samples of minute 80 arrive
        CLOCK.set(start.plus(Duration.ofMinutes(80)));
        post(node, start, 0, 80, 2.5);
        Instant idleSince = start.plus(Duration.ofMinutes(20));
        assertThat(flag(id, "idle_since")).isEqualTo(idleSince);
        reclaimer.run(CLOCK.instant());
        assertThat(flag(id, "noticed_at"))
                .as("idle 1 h of the 2 h asked: no notice yet")
                .isNull();

        CLOCK.set(start.plus(Duration.ofMinutes(150)));
        post(node, start, 90, 150, 2.5);
        reclaimer.run(CLOCK.instant());
        assertThat(flag(id, "noticed_at")).isEqualTo(CLOCK.instant());
        assertThat(flag(id, "release_at")).isEqualTo(CLOCK.instant().plus(Duration.ofMinutes(30)));
        assertThat(api.get(path(s, "/reservations/" + id), s.token())
                        .json()
                        .get("status")
                        .asString())
                .isNotEqualTo("CANCELLED");

        CLOCK.set(start.plus(Duration.ofMinutes(185)));
        post(node, start, 160, 180, 2.5);
        reclaimer.run(CLOCK.instant());

        Instant released = start.plus(Duration.ofMinutes(185));
        assertThat(flag(id, "released_at")).isEqualTo(released);
        assertThat(api.get(path(s, "/reservations/" + id), s.token())
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("CANCELLED");
        assertThat(api.get(path(s, "/notifications"), s.token())
                        .json()
                        .get("items")
                        .findValuesAsString("kind"))
                .containsExactly("IDLE_RELEASED", "IDLE_RECLAIM_NOTICE", "IDLE_RESERVATION");
        assertThat(jdbc.sql(
                                "SELECT count(*) FROM audit_event WHERE action = 'reservation.released-idle' AND object_id = ?")
                        .param(id.toString())
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
        await().until(() -> stoppedAt(id) != null);
        assertThat(stoppedAt(id)).isEqualTo(released);
        reclaimer.run(CLOCK.instant());
        assertThat(jdbc.sql(
                                "SELECT count(*) FROM audit_event WHERE action = 'reservation.released-idle' AND object_id = ?")
                        .param(id.toString())
                        .query(Long.class)
                        .single())
                .as("released once")
                .isEqualTo(1);
    }

    @Test
    void gpusUsedAgainDuringTheNoticeKeepTheReservation() {
        Booked b = bookOneNode();
        Setup s = b.s();
        Instant start = b.start();
        UUID id = b.id();
        String node = b.node();
        api.put(
                path(s, "/idle-reclaim"),
                adminToken(),
                Map.of("mode", "RELEASE", "afterHours", 1, "noticeMinutes", 60));
        CLOCK.set(start.plus(Duration.ofMinutes(90)));
        post(node, start, 0, 90, 2.5);
        reclaimer.run(CLOCK.instant());
        assertThat(flag(id, "release_at")).isNotNull();

        CLOCK.set(start.plus(Duration.ofMinutes(160)));
        post(node, start, 100, 150, 85.0);
        reclaimer.run(CLOCK.instant());

        assertThat(flag(id, "cleared_at")).isNotNull();
        assertThat(flag(id, "released_at")).isNull();
        assertThat(api.get(path(s, "/reservations/" + id), s.token())
                        .json()
                        .get("status")
                        .asString())
                .isNotEqualTo("CANCELLED");
    }

    @Test
    void notifyTellsTheTenantOnceAndReleasesNothing() {
        Booked b = bookOneNode();
        api.put(path(b.s(), "/idle-reclaim"), adminToken(), Map.of("mode", "NOTIFY", "afterHours", 1));
        CLOCK.set(b.start().plus(Duration.ofMinutes(90)));
        post(b.node(), b.start(), 0, 90, 2.5);

        reclaimer.run(CLOCK.instant());
        CLOCK.set(b.start().plus(Duration.ofMinutes(200)));
        post(b.node(), b.start(), 100, 200, 2.5);
        reclaimer.run(CLOCK.instant());

        assertThat(flag(b.id(), "noticed_at")).isEqualTo(b.start().plus(Duration.ofMinutes(90)));
        assertThat(flag(b.id(), "release_at")).isNull();
        assertThat(flag(b.id(), "released_at")).isNull();
        assertThat(api.get(path(b.s(), "/notifications"), b.s().token())
                        .json()
                        .get("items")
                        .findValuesAsString("kind"))
                .as("both raised at the same instant")
                .containsExactlyInAnyOrder("IDLE_RECLAIM_NOTICE", "IDLE_RESERVATION");
        assertThat(api.get(path(b.s(), "/reservations/" + b.id()), b.s().token())
                        .json()
                        .get("status")
                        .asString())
                .isNotEqualTo("CANCELLED");
    }

    private record Booked(Setup s, Instant start, UUID id, String node) {}

    /** One node for 11 hours from an hour into a month of its own. */
    private Booked bookOneNode() {
        Setup s = setup(1, 8, 8, false);
        Instant start = newMonth().plus(Duration.ofHours(1));
        Api.Response booked = book(s, 8, start, start.plus(Duration.ofHours(11)));
        return new Booked(
                s,
                start,
                UUID.fromString(booked.json().get("id").asString()),
                booked.json().get("nodes").get(0).asString());
    }

    private void post(String node, Instant start, int fromMinute, int toMinute, double utilisation) {
        List<Map<String, Object>> samples = new ArrayList<>();
        for (int minute = fromMinute; minute <= toMinute; minute += 10) {
            for (int gpu = 0; gpu < 8; gpu++) {
                samples.add(Map.of(
                        "node",
                        node,
                        "gpu",
                        gpu,
                        "utilisation",
                        utilisation,
                        "time",
                        start.plus(Duration.ofMinutes(minute)).toString()));
            }
        }
        Api.Response posted = api.post("/api/v1/telemetry/gpu-utilisation", adminToken(), Map.of("samples", samples));
        assertThat(posted.status()).as(posted.body()).isEqualTo(202);
    }

    private Instant flag(UUID id, String column) {
        Timestamp at = jdbc.sql("SELECT " + column + " FROM idle_flag WHERE reservation_id = ?")
                .param(id)
                .query(Timestamp.class)
                .optional()
                .orElse(null);
        return at == null ? null : at.toInstant();
    }

    private Instant stoppedAt(UUID id) {
        Timestamp at = jdbc.sql("SELECT stopped_at FROM billable_reservation WHERE reservation_id = ?")
                .param(id)
                .query(Timestamp.class)
                .optional()
                .orElse(null);
        return at == null ? null : at.toInstant();
    }

    private static void assertRefused(Api.Response response, String field) {
        assertThat(response.status()).as(response.body()).isEqualTo(400);
        assertThat(response.json().get("errors").findValuesAsString("field")).contains(field);
    }
}
