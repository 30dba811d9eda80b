package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A booking's shared memory is bounded by the memory of its pool's nodes, which admins set per pool. */
class SharedMemoryBookingTests extends BookingFixture {

    @Test
    void sharedMemoryAboveTheNodesMemoryIsRefusedNamingTheFieldAndWritesNothing() {
        Setup s = setup(2, 64, 64, false);
        assertThat(api.get("/api/v1/pools/" + s.pool(), adminToken())
                        .json()
                        .get("nodeMemoryGi")
                        .asInt())
                .as("the configured default")
                .isEqualTo(512);

        Api.Response aboveDefault = book(s, withShm(s, 513));

        assertRefused(aboveDefault, "512 GiB");
        Api.Response changed = api.patch("/api/v1/pools/" + s.pool(), adminToken(), Map.of("nodeMemoryGi", 256));
        assertThat(changed.status()).as(changed.body()).isEqualTo(200);
        assertThat(changed.json().get("nodeMemoryGi").asInt()).isEqualTo(256);
        assertRefused(book(s, withShm(s, 257)), "256 GiB");
        assertThat(writesOf(s.tenant())).isZero();
        assertThat(jdbc.sql(
                                "SELECT count(*) FROM audit_event WHERE action = 'pool.node-memory-changed' AND object_id = ?")
                        .param(s.pool())
                        .query(Long.class)
                        .single())
                .isEqualTo(1);

        Api.Response atTheLimit = book(s, withShm(s, 256));

        assertThat(atTheLimit.status()).as(atTheLimit.body()).isEqualTo(201);
        assertThat(atTheLimit.json().get("cluster").get("sharedMemoryGi").asInt())
                .isEqualTo(256);
    }

    @Test
    void onlyAPlatformAdminSetsTheNodeMemoryAndOnlyWithinBounds() {
        Setup s = setup(1, 8, 8, false);

        assertThat(api.patch("/api/v1/pools/" + s.pool(), s.token(), Map.of("nodeMemoryGi", 64))
                        .status())
                .isEqualTo(403);
        Api.Response zero = api.patch("/api/v1/pools/" + s.pool(), adminToken(), Map.of("nodeMemoryGi", 0));
        assertThat(zero.status()).isEqualTo(400);
        assertThat(zero.body()).contains("nodeMemoryGi");
        assertThat(api.get("/api/v1/pools/" + s.pool(), adminToken())
                        .json()
                        .get("nodeMemoryGi")
                        .asInt())
                .isEqualTo(512);
    }

    private static Map<String, Object> withShm(Setup s, int gi) {
        Map<String, Object> body = new HashMap<>(body(s, 8, hour(5), hour(6)));
        body.put(
                "cluster",
                Map.of(
                        "orchestrator",
                        "SLURM",
                        "cudaDriver",
                        "550.54",
                        "sharedMemoryGi",
                        gi,
                        "volumes",
                        List.of(Map.of("name", "data", "sizeGi", 500)),
                        "sshPublicKeys",
                        List.of(SSH_KEY)));
        return body;
    }

    private static void assertRefused(Api.Response response, String detail) {
        assertThat(response.status()).as(response.body()).isEqualTo(400);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().get("errors").get(0).get("field").asString()).isEqualTo("cluster.sharedMemoryGi");
        assertThat(response.json().get("errors").get(0).get("message").asString())
                .contains(detail);
    }
}
