package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a CI pipeline relies on: answers it can act on, problems it can parse, and links that lead somewhere. */
class ClientContractTests extends BookingFixture {

    @Test
    void earliestFitAnswersTheWindowsWithinTheCallersReachWhateverOthersHoldBeyondIt() {
        Setup mine = setup(1, 8, 8, false);
        Setup other = tenantOn(mine.gpuType(), mine.pool(), mine.nodes(), 0, 8, false);
        Map<String, Object> farReach = policy(mine.gpuType(), 0, 8, false);
        farReach.put("maxAdvance", "P365D");
        setQuota(other.tenant(), farReach);
        // The other tenant holds the only node from day 70, beyond this tenant's 60-day reach.
        assertThat(book(other, 8, hour(70 * 24), hour(71 * 24)).status()).isEqualTo(201);

        Api.Response earliest = api.get(
                "/api/v1/capacity/earliest?pool=" + mine.pool() + "&gpus=8&duration=PT24H&tenant=" + mine.tenant(),
                mine.token());
        assertThat(earliest.status()).as(earliest.body()).isEqualTo(200);
        assertThat(earliest.json().get("windows")).hasSize(1);
        Instant start = Instant.parse(
                earliest.json().get("windows").get(0).get("startsAt").asString());
        assertThat(start).isBefore(hour(70 * 24));
    }

    @Test
    void aRefusalForLackOfCapacitySaysWhenTheSameBookingFits() {
        Setup s = setup(1, 8, 16, false);
        assertThat(book(s, 8, hour(10), hour(13)).status()).isEqualTo(201);
        long writes = writesOf(s.tenant());

        Api.Response refused = book(s, 8, hour(11), hour(12));
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.json().get("code").asString()).isEqualTo("capacity_not_available");
        assertThat(refused.json().get("earliestStart").asString()).isEqualTo(hour(13).toString());
        var alternatives = refused.json().get("alternatives");
        assertThat(alternatives.size()).isBetween(1, 3);
        assertThat(alternatives.get(0).get("startsAt").asString()).isEqualTo(hour(13).toString());
        assertThat(alternatives.get(0).get("endsAt").asString()).isEqualTo(hour(14).toString());
        assertThat(writesOf(s.tenant())).isEqualTo(writes);

        // What it suggests can be booked as it stands.
        assertThat(book(s, 8, hour(13), hour(14)).status()).isEqualTo(201);
    }

    @Test
    void aProblemsStatusIsTheHttpStatusAndTheReservationsStateHasAFieldOfItsOwn() {
        Setup s = setup(1, 8, 8, false);
        String id = book(s, 8, hour(20), hour(21)).json().get("id").asString();
        assertThat(api.post(path(s, id) + "/cancel", s.token(), Map.of()).status())
                .isEqualTo(200);
        Api.Response again = api.post(path(s, id) + "/cancel", s.token(), Map.of());
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.json().get("status").isNumber()).isTrue();
        assertThat(again.json().get("status").asInt()).isEqualTo(409);
        assertThat(again.json().get("reservationStatus").asString()).isEqualTo("CANCELLED");
    }

    @Test
    void everyLocationOfACreatedResourceAnswers200() {
        Setup s = setup(1, 8, 8, false);
        List<String> locations = new ArrayList<>();
        locations.add(created(
                api.post("/api/v1/tenants", adminToken(), Map.of("slug", unique("loc"), "displayName", "Loc"))));
        locations.add(created(api.post(
                "/api/v1/tenants/" + s.tenant() + "/projects",
                adminToken(),
                Map.of("slug", "more", "displayName", "More"))));
        locations.add(created(api.post(
                "/api/v1/tenants/" + s.tenant() + "/members",
                adminToken(),
                Map.of("username", newUser(), "role", "VIEWER"))));
        locations.add(created(
                api.post("/api/v1/tenants/" + s.tenant() + "/service-accounts", adminToken(), Map.of("name", "ci"))));
        locations.add(created(
                api.post("/api/v1/users", adminToken(), Map.of("username", unique("u"), "displayName", "Someone"))));
        locations.add(created(api.post(
                "/api/v1/gpu-types",
                adminToken(),
                Map.of("code", "L" + System.nanoTime() % 1_000_000_000L, "memoryGb", 80))));
        locations.add(created(api.post(
                "/api/v1/pools",
                adminToken(),
                Map.of("name", unique("p"), "gpuType", s.gpuType(), "gpusPerNode", 8, "region", "eu"))));
        locations.add(created(api.post(
                "/api/v1/pools/" + s.pool() + "/nodes",
                adminToken(),
                Map.of("hostname", s.pool() + "-extra", "rack", "r1", "ibBlock", "b1"))));
        locations.add(created(book(s, 8, hour(30), hour(31))));
        for (String location : locations) {
            assertThat(api.get(location, adminToken()).status()).as(location).isEqualTo(200);
        }
    }

    @Test
    void aClusterWaitAnswersAtOnceWhenSettledAndOtherwiseAfterItsTimeout() {
        Setup s = setup(1, 8, 8, false);
        String id =
                book(s, 8, hour(24 * 20), hour(24 * 20 + 1)).json().get("id").asString();
        String cluster = path(s, id) + "/cluster";
        assertThat(api.get(cluster + "?waitFor=READY&timeout=P1D", s.token()).status())
                .isEqualTo(400);
        assertThat(api.get(cluster + "?waitFor=SOON", s.token()).status()).isEqualTo(400);

        long started = System.nanoTime();
        Api.Response waited = api.get(cluster + "?waitFor=READY&timeout=PT2S", s.token());
        assertThat(waited.status()).isEqualTo(200);
        assertThat(waited.json().get("state").asString()).isEqualTo("PENDING");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));

        assertThat(api.post(path(s, id) + "/cancel", s.token(), Map.of()).status())
                .isEqualTo(200);
        Api.Response settled = api.get(cluster + "?waitFor=READY&timeout=PT10M", s.token());
        assertThat(settled.status()).isEqualTo(200);
        assertThat(settled.json().get("reservationStatus").asString()).isEqualTo("CANCELLED");
    }

    private static String created(Api.Response response) {
        assertThat(response.status()).as(response.body()).isIn(201, 202);
        String location = response.header("Location");
        assertThat(location).isNotBlank();
        return location;
    }
}
