package dev.allot.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A reservation's status is read from its cluster, not pushed into the reservation by provisioning (issue 26):
 * the stages the cluster goes through show in the reservation's status, and change nothing stored in it, so its
 * version (its ETag) is what the tenant changed, never what provisioning did meanwhile.
 */
class ReservationStatusIsReadTests extends LifecycleTest {

    @Test
    void theStatusFollowsTheClusterAndAnETagReadBeforeTheClusterWasBuiltStillExtends() {
        Setup s = fleet(2);
        Instant start = now().truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(10));
        String id = bookAndAwaitSchedule(s, 16, start, start.plus(Duration.ofHours(1)), "KUBERNETES");
        Api.Response read = api.get(path(s, id), s.token());
        assertThat(read.json().get("status").asString()).isEqualTo("CONFIRMED");
        String etag = read.header("ETag");

        runDueAt(now());

        assertThat(cluster(s, id).get("state").asString()).isEqualTo("READY");
        assertThat(reservationStatus(s, id)).isEqualTo("ACTIVE");
        assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/reservations?status=ACTIVE", s.token())
                        .json()
                        .get("items")
                        .valueStream()
                        .map(r -> r.get("id").asString()))
                .contains(id);
        // nothing of the reservation was stored by provisioning: its ETag is the one read before the build
        assertThat(jdbc.sql("SELECT lifecycle_status FROM reservation WHERE id = ?::uuid")
                        .param(id)
                        .query(String.class)
                        .list())
                .containsExactly((String) null);
        Api.Response extended = api.patch(
                path(s, id),
                s.token(),
                Map.of("endsAt", start.plus(Duration.ofHours(2)).toString()),
                "If-Match",
                etag);
        assertThat(extended.status()).as(extended.toString()).isEqualTo(200);
        assertThat(extended.json().get("status").asString()).isEqualTo("ACTIVE");
    }
}
