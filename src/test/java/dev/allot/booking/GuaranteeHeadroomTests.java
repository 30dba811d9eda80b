package dev.allot.booking;

import java.util.Map;

import dev.allot.support.Api;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

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
		Api.Response quoted = api.post("/api/v1/tenants/" + burst.tenant() + "/quotes", burst.token(),
				body(burst, 24, hour(5), hour(9)));
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
		assertThat(refused.get("detail").asString()).contains("\"preemptible\": true").doesNotContain(guaranteed.tenant());
		assertThat(count("SELECT count(*) FROM reservation WHERE pool_id = (SELECT id FROM pool WHERE name = ?)",
				burst.pool())).isZero();

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
		assertThat(api.get(path(burst, lent.json().get("id").asString()), burst.token()).json().get("status").asString())
			.isEqualTo("PREEMPTED");
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
