package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Lending limits: what a tenant does not lend of its unused guarantee, no other tenant books, even preemptibly. */
class LendingTests extends BookingFixture {

    @Test
    void borrowersGetOnlyWhatIsLentAndTheOwnerStillGetsWhatItHeldBack() {
        Setup b = setup(4, 0, 32, false); // 32 GPUs, b borrows only
        Setup a = tenantOn(b.gpuType(), b.pool(), b.nodes(), 0, 16, false);
        Map<String, Object> lendsHalf = policy(a.gpuType(), 16, 16, false);
        lendsHalf.put("lendableGpus", 8);
        setQuota(a.tenant(), lendsHalf);

        // the quote says so before booking, with the same refusal
        Api.Response quoted =
                api.post("/api/v1/tenants/" + b.tenant() + "/quotes", b.token(), body(b, 32, hour(5), hour(9)));
        assertThat(quoted.status()).as(quoted.toString()).isEqualTo(200);
        assertThat(quoted.json().get("fits").asBoolean()).isFalse();
        assertThat(quoted.json().get("capacity").get("fits").asBoolean()).isTrue();
        assertThat(quoted.json().get("refusal").get("code").asString()).isEqualTo("capacity_not_available");
        assertThat(quoted.json().get("refusal").get("heldGpus").asInt()).isEqualTo(8);
        assertThat(api.post("/api/v1/tenants/" + b.tenant() + "/quotes", b.token(), body(b, 24, hour(5), hour(9)))
                        .json()
                        .get("fits")
                        .asBoolean())
                .isTrue();

        Api.Response all = book(b, 32, hour(5), hour(9));
        assertThat(all.status()).as(all.toString()).isEqualTo(409);
        assertThat(all.json().get("type").asString()).endsWith("capacity_not_available");
        assertThat(all.json().get("heldGpus").asInt()).isEqualTo(8);
        assertThat(all.json().get("detail").asString())
                .contains("32 " + b.gpuType() + " GPUs are free and 8 of them are held")
                .doesNotContain(a.tenant());
        assertThat(count(
                        "SELECT count(*) FROM reservation r JOIN tenant t ON t.id = r.tenant_id WHERE t.slug = ?",
                        b.tenant()))
                .isZero();

        Api.Response lent = book(b, 24, hour(5), hour(9));
        assertThat(lent.status()).as(lent.toString()).isEqualTo(201);
        assertThat(book(b, 8, hour(6), hour(7)).status()).isEqualTo(409);
        // outside the borrowed hours the held part is still all the owner's to hold back
        assertThat(book(b, 24, hour(9), hour(10)).status()).isEqualTo(201);

        // the owner books what it held back, without preempting anyone
        Api.Response own = book(a, 8, hour(5), hour(9));
        assertThat(own.status()).as(own.toString()).isEqualTo(201);
        assertThat(api.get(path(b, lent.json().get("id").asString()), b.token())
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("CONFIRMED");
    }

    @Test
    void earliestFitOffersABorrowerOnlyWindowsWhereEnoughIsLent() {
        Setup b = setup(4, 0, 32, false);
        Setup a = tenantOn(b.gpuType(), b.pool(), b.nodes(), 0, 16, false);
        Map<String, Object> lendsHalf = policy(a.gpuType(), 16, 16, false);
        lendsHalf.put("lendableGpus", 8);
        setQuota(a.tenant(), lendsHalf);
        String earliest = "/api/v1/capacity/earliest?pool=" + b.pool() + "&duration=PT2H&after=" + hour(2) + "&tenant="
                + b.tenant() + "&gpus=";

        // every node is free, but a holds 8 of its GPUs back at every hour: 32 never fits for b
        Api.Response all = api.get(earliest + 32, b.token());
        assertThat(all.status()).as(all.body()).isEqualTo(200);
        assertThat(all.json().get("windows").isEmpty()).as(all.body()).isTrue();
        Api.Response lent = api.get(earliest + 24, b.token());
        assertThat(lent.json().get("windows").get(0).get("startsAt").asString()).isEqualTo(hour(2).toString());
    }

    @Test
    void aTenantLendingAllOfItsGuaranteeHoldsNothingBack() {
        Setup b = setup(4, 0, 32, false);
        Setup a = tenantOn(b.gpuType(), b.pool(), b.nodes(), 16, 16, false);
        assertThat(api.get("/api/v1/tenants/" + a.tenant() + "/quota", adminToken())
                        .json()
                        .get("policies")
                        .get(0)
                        .get("lendableGpus")
                        .asInt())
                .isEqualTo(16);
        assertThat(book(b, 32, hour(5), hour(9)).status()).isEqualTo(201);
    }

    private long count(String sql, Object... args) {
        return jdbc.sql(sql).params(args).query(Long.class).single();
    }
}
