package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.support.Api;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class IdempotencyTests extends BookingFixture {

    @Test
    void aRetryWithTheSameKeyGetsTheBookingKeptOnItsReservationAndAnotherBodyIsRefused() {
        Setup s = setup(2, 16, 16, false);
        Map<String, Object> body = body(s, 8, hour(5), hour(6));
        Api.Response first = book(s, body, "Idempotency-Key", "nightly-1");
        Api.Response retry = book(s, body, "Idempotency-Key", "nightly-1");
        assertThat(first.status()).isEqualTo(201);
        assertThat(retry.status()).isEqualTo(201);
        assertThat(retry.json().get("id")).isEqualTo(first.json().get("id"));
        assertThat(retry.json().get("nodes")).isEqualTo(first.json().get("nodes"));
        assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");

        // the key lives on the reservation alone: nothing was claimed or stored beside it
        assertThat(jdbc.sql("SELECT count(*) FROM idempotent_request WHERE idempotency_key = 'nightly-1'")
                        .query(Integer.class)
                        .single())
                .isZero();
        assertThat(jdbc.sql("SELECT idempotency_key FROM reservation WHERE id = CAST(? AS uuid)")
                        .param(first.json().get("id").asString())
                        .query(String.class)
                        .single())
                .isEqualTo("nightly-1");

        Api.Response other = book(s, body(s, 16, hour(5), hour(6)), "Idempotency-Key", "nightly-1");
        assertThat(other.status()).isEqualTo(422);
        assertThat(other.json().get("code").asString()).isEqualTo("idempotency_key_reused");
        assertThat(reservationsOf(s.tenant())).isEqualTo(1);

        // The key belongs to the tenant: another tenant may use the same one.
        Setup neighbour = tenantOn(s.gpuType(), s.pool(), s.nodes(), 16, 16, false);
        assertThat(book(neighbour, body(neighbour, 8, hour(5), hour(6)), "Idempotency-Key", "nightly-1")
                        .status())
                .isEqualTo(201);
    }

    /**
     * A retry after the booking's window has begun gets the booking, as a pipeline's step retried after it waited for
     * its cluster does: the request is not checked again (its start is no longer in the future). It was refused 400
     * once the key lived on the reservation alone, until the replay came before the checks (the CLI's end-to-end test).
     */
    @Test
    void aRetryAfterTheWindowHasBegunGetsTheBooking() {
        Setup s = setup(2, 16, 16, false);
        // the first whole minute more than 5 s away (starts are whole minutes): the test waits for it, 5 to 65 s
        Instant start = Instant.now().plusSeconds(65).truncatedTo(ChronoUnit.MINUTES);
        Map<String, Object> body = body(s, 8, start, start.plus(Duration.ofHours(1)));
        Api.Response first = book(s, body, "Idempotency-Key", "started-1");
        assertThat(first.status()).as(first.toString()).isEqualTo(201);
        Instant begun = start.plusMillis(500);
        await().atMost(Duration.ofSeconds(70)).until(() -> Instant.now().isAfter(begun));
        Api.Response retry = book(s, body, "Idempotency-Key", "started-1");
        assertThat(retry.status()).as(retry.toString()).isEqualTo(201);
        assertThat(retry.json().get("id")).isEqualTo(first.json().get("id"));
        assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
        // without the key, the same request is checked, and refused
        assertThat(book(s, body).status()).isEqualTo(400);
    }

    /** A retry is the same request when its JSON is: keys in another order and other spacing change nothing. */
    @Test
    void aRetryWithTheSameJsonInAnotherKeyOrderAndSpacingIsTheSameRequest() {
        Setup s = setup(2, 16, 16, false);
        Map<String, Object> body = body(s, 8, hour(5), hour(6));
        List<String> keys = new ArrayList<>(body.keySet());
        Collections.reverse(keys);
        Map<String, Object> reordered = new LinkedHashMap<>();
        keys.forEach(key -> reordered.put(key, body.get(key)));
        String spaced = "\n" + Api.json(reordered).replace(",", " ,\n  ").replace("{", "{ ") + "\n";

        Api.Response first = book(s, body, "Idempotency-Key", "nightly-reordered");
        Api.Response retry = api.post(
                "/api/v1/tenants/" + s.tenant() + "/reservations",
                s.token(),
                spaced,
                "Idempotency-Key",
                "nightly-reordered");

        assertThat(first.status()).isEqualTo(201);
        assertThat(retry.status()).as(retry.toString()).isEqualTo(201);
        assertThat(retry.json().get("id")).isEqualTo(first.json().get("id"));
        assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(reservationsOf(s.tenant())).isEqualTo(1);
    }

    @Test
    void identicalRequestsRacingEachOtherBookOnce() throws Exception {
        Setup s = setup(4, 32, 32, false);
        Map<String, Object> body = body(s, 8, hour(8), hour(9));
        List<Callable<Api.Response>> twins = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            twins.add(() -> book(s, body, "Idempotency-Key", "race-1"));
        }
        List<Api.Response> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            for (Future<Api.Response> answer : pool.invokeAll(twins)) {
                answers.add(answer.get());
            }
        }
        assertThat(answers).allSatisfy(a -> assertThat(a.status()).as(a.body()).isEqualTo(201));
        assertThat(answers.stream().map(a -> a.json().get("id").asString()).distinct())
                .hasSize(1);
        assertThat(reservationsOf(s.tenant())).isEqualTo(1);
        assertThat(jdbc.sql("SELECT count(*) FROM allocation a JOIN reservation r ON r.id = a.reservation_id "
                                + "WHERE r.tenant_slug = ?")
                        .param(s.tenant())
                        .query(Integer.class)
                        .single())
                .isEqualTo(1);
    }

    /**
     * Keys are per caller (issue 29, finding 11): a second service account of the same tenant sending the same key
     * books its own reservation; before, it got the first account's reservation replayed.
     */
    @Test
    void twoCallersOfOneTenantSendingTheSameKeyEachGetTheirOwnReservation() {
        Setup s = setup(2, 16, 16, false);
        String secondAccount = tenantToken(s.tenant(), "MEMBER");
        Map<String, Object> body = body(s, 8, hour(5), hour(6));

        Api.Response mine = book(s, body, "Idempotency-Key", "nightly-7");
        Api.Response theirs = api.post(
                "/api/v1/tenants/" + s.tenant() + "/reservations", secondAccount, body, "Idempotency-Key", "nightly-7");
        Api.Response theirRetry = api.post(
                "/api/v1/tenants/" + s.tenant() + "/reservations", secondAccount, body, "Idempotency-Key", "nightly-7");

        assertThat(mine.status()).isEqualTo(201);
        assertThat(theirs.status()).as(theirs.toString()).isEqualTo(201);
        assertThat(theirs.header("Idempotent-Replayed")).isNull();
        assertThat(theirs.json().get("id")).isNotEqualTo(mine.json().get("id"));
        assertThat(theirRetry.json().get("id")).isEqualTo(theirs.json().get("id"));
        assertThat(reservationsOf(s.tenant())).isEqualTo(2);
    }
}
