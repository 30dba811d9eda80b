package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.sql.Timestamp;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * On-demand never takes what a guarantee needs: a booking that is not preemptible and goes beyond its tenant's
 * guarantee is refused {@code 409 guarantee_headroom} when other tenants' unused guarantees would no longer fit in
 * free nodes plus preemptible holdings. Before, a tenant with no quota and burst booked the pool on demand, and a
 * guaranteed tenant with none of its GPUs in use was then refused (the example).
 */
class GuaranteeHeadroomTests extends BookingFixture {

    @Test
    void anOnDemandBookingThatWouldTakeAnotherTeamsUnusedGuaranteeIsRefusedAndThePreemptibleOneIsReclaimed() {
        Setup burst = setup(3, 0, 0, true);
        Setup guaranteed = tenantOn(burst.gpuType(), burst.pool(), burst.nodes(), 16, 16, false);

        // the whole pool on demand would leave nothing for the 16 guaranteed GPUs nobody uses: the quote says so
        Api.Response quoted = api.post(
                "/api/v1/tenants/" + burst.tenant() + "/quotes", burst.token(), body(burst, 24, hour(5), hour(9)));
        assertThat(quoted.json().get("fits").asBoolean()).as(quoted.toString()).isFalse();
        assertThat(quoted.json().get("refusal").get("code").asString()).isEqualTo("guarantee_headroom");
        Api.Response whole = book(burst, 24, hour(5), hour(9));
        assertThat(whole.status()).as(whole.toString()).isEqualTo(409);
        JsonNode refused = whole.json();
        assertThat(refused.get("code").asString()).isEqualTo("guarantee_headroom");
        assertThat(refused.get("unusedGuaranteedGpus").asInt()).isEqualTo(16);
        assertThat(refused.get("freeGpus").asInt()).isEqualTo(24);
        assertThat(refused.get("hours").size()).isEqualTo(4);
        assertThat(refused.get("preemptiblePrice").decimalValue()).isPositive();
        assertThat(refused.get("detail").asString())
                .contains("\"preemptible\": true")
                .doesNotContain(guaranteed.tenant());
        assertThat(count(
                        "SELECT count(*) FROM reservation WHERE pool_id = (SELECT id FROM pool WHERE name = ?)",
                        burst.pool()))
                .isZero();

        // what leaves the guarantee room is booked
        assertThat(book(burst, 8, hour(5), hour(9)).status()).isEqualTo(201);
        assertThat(book(burst, 8, hour(5), hour(9)).status()).isEqualTo(409);

        // marked preemptible it is booked, at the same price, and the guaranteed team reclaims it
        Map<String, Object> preemptible = body(burst, 8, hour(5), hour(9));
        preemptible.put("preemptible", true);
        Api.Response lent = book(burst, preemptible);
        assertThat(lent.status()).as(lent.toString()).isEqualTo(201);
        Api.Response owner = book(guaranteed, 16, hour(5), hour(9));
        assertThat(owner.status()).as(owner.toString()).isEqualTo(201);
        assertThat(api.get(path(burst, lent.json().get("id").asString()), burst.token())
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("PREEMPTED");
    }

    /**
     * A guaranteed team's own preemptible reservation within its guarantee is no headroom for another team's guarantee:
     * reclaiming it would leave the first guarantee unused in turn. Before, an on-demand booking counted it, and once
     * the preemptible reservation was cancelled, 24 guaranteed GPUs nobody used faced 16 free ones (found by
     * {@link GuaranteeHeadroomProperties} in a CI run).
     */
    @Test
    void aGuaranteedTeamsOwnPreemptibleReservationIsNoRoomForAnotherTeamsGuarantee() {
        Setup burst = setup(3, 0, 0, true);
        Setup first = tenantOn(burst.gpuType(), burst.pool(), burst.nodes(), 8, 8, false);
        tenantOn(burst.gpuType(), burst.pool(), burst.nodes(), 8, 8, false);
        Map<String, Object> own = body(first, 8, hour(5), hour(9));
        own.put("preemptible", true);
        assertThat(book(first, own).status()).isEqualTo(201);
        // free 16, the second team's unused guarantee 8: one more node on demand leaves 8 free, enough; two leave none,
        // and the first team's preemptible node is its own guarantee, not room for the second's
        Api.Response both = book(burst, 16, hour(5), hour(9));
        assertThat(both.status()).as(both.toString()).isEqualTo(409);
        assertThat(both.json().get("code").asString()).isEqualTo("guarantee_headroom");
        assertThat(book(burst, 8, hour(5), hour(9)).status()).isEqualTo(201);
    }

    /**
     * An extension beyond the guarantee is checked like a booking: before, only the lending limits were, so an
     * on-demand reservation could be extended into hours where another team's unused guarantee no longer fitted.
     */
    @Test
    void anOnDemandExtensionThatWouldTakeAnotherTeamsUnusedGuaranteeIsRefusedAndWritesNothing() {
        // three nodes; only the last has CUDA driver 560.35 (and not 550.54), so the extended reservation is there and
        // the other team's is not
        String type = newGpuType();
        setRateCard(type);
        String pool = newPool(type, 8);
        List<String> nodes = List.of(pool + "-n0", pool + "-n1", pool + "-n2");
        for (String node : nodes) {
            assertThat(api.post(
                                    "/api/v1/pools/" + pool + "/nodes",
                                    adminToken(),
                                    Map.of(
                                            "hostname",
                                            node,
                                            "rack",
                                            "rack-0",
                                            "ibBlock",
                                            "ib-0",
                                            "cudaDrivers",
                                            node.endsWith("n2") ? List.of("560.35") : List.of("550.54")))
                            .status())
                    .isEqualTo(201);
        }
        Setup burst = tenantOn(type, pool, nodes, 0, 0, true);
        tenantOn(type, pool, nodes, 16, 16, false);
        Setup other = tenantOn(type, pool, nodes, 0, 0, true);
        Map<String, Object> onNewDriver = body(burst, 8, hour(5), hour(9));
        onNewDriver.put("cluster", Map.of("orchestrator", "SLURM", "cudaDriver", "560.35"));
        String id = createdId(book(burst, onNewDriver));
        // another team on demand after it, on another node: 16 GPUs stay free for the unused guarantee
        String after = createdId(book(other, 8, hour(9), hour(13)));
        assertThat(api.get(path(other, after), other.token())
                        .json()
                        .get("nodes")
                        .get(0)
                        .asString())
                .isNotEqualTo(nodes.get(2));

        Api.Response current = api.get(path(burst, id), burst.token());
        Api.Response extended = api.patch(
                path(burst, id),
                burst.token(),
                Map.of("endsAt", hour(13).toString()),
                "If-Match",
                current.header("ETag"));

        assertThat(extended.status()).as(extended.toString()).isEqualTo(409);
        assertThat(extended.json().get("code").asString()).isEqualTo("guarantee_headroom");
        assertThat(extended.json().get("at").asString()).isEqualTo(hour(9).toString());
        assertThat(api.get(path(burst, id), burst.token()).json().get("endsAt").asString())
                .isEqualTo(current.json().get("endsAt").asString());
        assertThat(count(
                        "SELECT count(*) FROM allocation WHERE reservation_id = ?::uuid AND upper(during) > ?",
                        id,
                        Timestamp.from(hour(9))))
                .isZero();
    }

    @Test
    void aBookingWithinItsOwnGuaranteeOrOneThatBorrowsIsNeverRefusedForTheHeadroom() {
        Setup a = setup(4, 16, 32, false);
        Setup b = tenantOn(a.gpuType(), a.pool(), a.nodes(), 16, 16, false);
        // within a's guarantee: no headroom check
        assertThat(book(a, 16, hour(5), hour(9)).status()).isEqualTo(201);
        // borrowing (preemptible) beyond it: b's unused guarantee can take it back by reclaiming
        Api.Response borrowed = book(a, 16, hour(5), hour(9));
        assertThat(borrowed.status()).as(borrowed.toString()).isEqualTo(201);
        assertThat(borrowed.json().get("preemptible").asBoolean()).isTrue();
        assertThat(book(b, 16, hour(5), hour(9)).status()).isEqualTo(201);
    }

    private long count(String sql, Object... params) {
        return jdbc.sql(sql).params(params).query(Long.class).single();
    }
}
