package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Dedicated pools (issue 31, part 3): a pool {@code dedicatedTo} some tenants is invisible to the others
 * (pool lists, the calendar, earliest-fit, quotes; a booking naming it answers 404), changing its tenants never
 * strands a reservation, and its capacity counts only for its own tenants' guarantees.
 */
class DedicatedPoolsTests extends BookingFixture {

    @Test
    void aPoolDedicatedToATenantIsInvisibleToOthersWhoCannotBookItWhileItsTenantBooksIt() {
        Setup owner = setup(1, 8, 8, false);
        Setup other = tenantOn(owner.gpuType(), owner.pool(), owner.nodes(), 0, 8, false);
        String path = "/api/v1/pools/" + owner.pool();
        Api.Response dedicated = api.patch(path, adminToken(), Map.of("dedicatedTo", List.of(owner.tenant())));
        assertThat(dedicated.status()).as(dedicated.toString()).isEqualTo(200);
        assertThat(dedicated.json().get("dedicatedTo").get(0).asString()).isEqualTo(owner.tenant());

        assertThat(poolNames(api.get("/api/v1/pools?size=500", other.token()))).doesNotContain(owner.pool());
        assertThat(poolNames(api.get("/api/v1/pools?size=500", owner.token()))).contains(owner.pool());
        assertThat(poolNames(api.get("/api/v1/pools?size=500", adminToken()))).contains(owner.pool());
        assertThat(api.get(path, other.token()).status()).isEqualTo(404);
        assertThat(api.get(path, owner.token()).status()).isEqualTo(200);
        assertThat(field(api.get("/api/v1/capacity?pool=" + owner.pool(), other.token())))
                .isEqualTo("pool");
        assertThat(field(api.get(
                        "/api/v1/capacity/earliest?pool=" + owner.pool() + "&gpus=8&duration=PT1H", other.token())))
                .isEqualTo("pool");

        long writes = writesOf(other.tenant());
        Api.Response quote = api.post(
                "/api/v1/tenants/" + other.tenant() + "/quotes", other.token(), body(other, 8, hour(5), hour(6)));
        assertThat(quote.status()).as(quote.toString()).isEqualTo(404);
        Api.Response refused = book(other, 8, hour(5), hour(6));
        assertThat(refused.status()).as(refused.toString()).isEqualTo(404);
        assertThat(writesOf(other.tenant())).isEqualTo(writes);

        assertThat(book(owner, 8, hour(5), hour(6)).status()).isEqualTo(201);
    }

    @Test
    void dedicatingAPoolLeavesAnotherTenantsBookingInPlaceAndSaysSo() {
        Setup first = setup(2, 8, 16, false);
        Setup second = tenantOn(first.gpuType(), first.pool(), first.nodes(), 0, 8, false);
        String held = createdId(book(second, 8, hour(5), hour(8)));

        Api.Response dedicated = api.patch(
                "/api/v1/pools/" + first.pool(), adminToken(), Map.of("dedicatedTo", List.of(first.tenant())));
        assertThat(dedicated.status()).as(dedicated.toString()).isEqualTo(200);
        assertThat(dedicated.json().get("leftInPlace")).hasSize(1);
        assertThat(dedicated
                        .json()
                        .get("leftInPlace")
                        .get(0)
                        .get("reservationId")
                        .asString())
                .isEqualTo(held);

        Api.Response kept = api.get(path(second, held), second.token());
        assertThat(kept.json().get("status").asString()).isEqualTo("CONFIRMED");
        assertThat(kept.json().get("nodes")).hasSize(1);
        assertThat(book(second, 8, hour(10), hour(11)).status()).isEqualTo(404);

        // shared again: the other tenant books it again
        assertThat(api.patch("/api/v1/pools/" + first.pool(), adminToken(), Map.of("dedicatedTo", List.of()))
                        .status())
                .isEqualTo(200);
        assertThat(book(second, 8, hour(10), hour(11)).status()).isEqualTo(201);
    }

    @Test
    void aDedicationNamingNoSuchTenantIsA400AndChangesNothing() {
        Setup s = setup(1, 8, 8, false);
        Api.Response refused = api.patch(
                "/api/v1/pools/" + s.pool(), adminToken(), Map.of("dedicatedTo", List.of(s.tenant(), "no-such-team")));
        assertThat(field(refused)).isEqualTo("dedicatedTo[1]");
        assertThat(api.get("/api/v1/pools/" + s.pool(), adminToken()).json().get("dedicatedTo"))
                .isEmpty();
        Api.Response created = api.post(
                "/api/v1/pools",
                adminToken(),
                Map.of(
                        "name",
                        unique("p"),
                        "gpuType",
                        s.gpuType(),
                        "gpusPerNode",
                        8,
                        "region",
                        "eu",
                        "dedicatedTo",
                        List.of("no-such-team")));
        assertThat(field(created)).isEqualTo("dedicatedTo[0]");
    }

    @Test
    void aDedicatedPoolsCapacityCountsOnlyForItsOwnTenantsGuarantees() {
        // one shared node and one dedicated node of the type: 8 GPUs each
        Setup owner = setup(1, 0, 16, false);
        String dedicatedPool = newPool(owner.gpuType(), 8);
        addNodes(dedicatedPool, 1, 4);
        assertThat(api.patch(
                                "/api/v1/pools/" + dedicatedPool,
                                adminToken(),
                                Map.of("dedicatedTo", List.of(owner.tenant())))
                        .status())
                .isEqualTo(200);
        String stranger = newTenant();

        Api.Response tooMuch = api.put(
                "/api/v1/tenants/" + stranger + "/quota",
                adminToken(),
                Map.of("policies", List.of(policy(owner.gpuType(), 16, 16, false))));
        assertThat(tooMuch.status()).as(tooMuch.toString()).isEqualTo(422);
        assertThat(tooMuch.json().get("code").asString()).isEqualTo("guarantees_exceed_capacity");
        assertThat(tooMuch.json().get("capacity").asInt()).isEqualTo(8);
        assertThat(tooMuch.json().get("detail").asString()).contains("dedicated pool counts only for its own");

        Api.Response ownersGuarantee = api.put(
                "/api/v1/tenants/" + owner.tenant() + "/quota",
                adminToken(),
                Map.of("policies", List.of(policy(owner.gpuType(), 16, 16, false))));
        assertThat(ownersGuarantee.status()).as(ownersGuarantee.toString()).isEqualTo(200);
        // the owner takes the shared node too: nothing is left for anyone else's guarantee
        Api.Response none = api.put(
                "/api/v1/tenants/" + stranger + "/quota",
                adminToken(),
                Map.of("policies", List.of(policy(owner.gpuType(), 8, 8, false))));
        assertThat(none.status()).isEqualTo(422);
    }

    private static List<String> poolNames(Api.Response pools) {
        assertThat(pools.status()).isEqualTo(200);
        List<String> names = new ArrayList<>();
        pools.json().get("items").forEach(pool -> names.add(pool.get("name").asString()));
        return names;
    }

    private static String field(Api.Response refused) {
        assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
        return refused.json().get("errors").get(0).get("field").asString();
    }
}
