package dev.allot.booking;

import dev.allot.support.Api;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** A tenant sees what is left of its quota, hour by hour, without asking an admin. */
class QuotaStandingApiTests extends BookingFixture {

	@Test
	void aMemberSeesItsGuaranteeWhatItHoldsAndWhatANewBookingWouldGet() {
		Setup s = setup(4, 8, 16, false);
		assertThat(book(s, 16, hour(5), hour(7)).status()).isEqualTo(201);
		assertThat(book(s, 8, hour(7), hour(8)).status()).isEqualTo(201);

		Api.Response standing = api.get("/api/v1/tenants/" + s.tenant() + "/quota/standing?gpuType=" + s.gpuType()
				+ "&from=" + hour(4) + "&to=" + hour(9) + "&step=PT1H", tenantToken(s.tenant(), "VIEWER"));
		assertThat(standing.status()).as(standing.toString()).isEqualTo(200);
		var steps = standing.json().get("steps");
		assertThat(steps.size()).isEqualTo(5);
		assertStep(steps.get(0), 0, 0, "RESERVED");
		assertStep(steps.get(1), 8, 8, "NONE");
		assertStep(steps.get(3), 8, 0, "BORROWED");
		assertStep(steps.get(4), 0, 0, "RESERVED");
		assertThat(steps.get(1).get("guaranteedGpus").asInt()).isEqualTo(8);

		assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/quota/standing?gpuType=" + s.gpuType() + "&from="
				+ hour(9) + "&to=" + hour(4), s.token()).status()).isEqualTo(400);
		assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/quota/standing?gpuType=" + s.gpuType(),
				tenantToken(newTenant(), "TENANT_ADMIN")).status()).isEqualTo(404);
	}

	private static void assertStep(JsonNode step, int reserved, int borrowed, String newBooking) {
		assertThat(step.get("reservedInUse").asInt()).as(step.toString()).isEqualTo(reserved);
		assertThat(step.get("borrowedInUse").asInt()).as(step.toString()).isEqualTo(borrowed);
		assertThat(step.get("newBooking").asString()).as(step.toString()).isEqualTo(newBooking);
	}

}
