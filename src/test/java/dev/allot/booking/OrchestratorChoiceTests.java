package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A booking's orchestrator must be what the pool's driver builds: a Slurm pool builds Slurm clusters only, a pool
 * with driver {@code none} builds nothing, a pool left to the default ({@code fake}) driver simulates either. A
 * mismatch is refused with 400 naming {@code cluster.orchestrator} and the pools offering what was asked, for
 * bookings and quotes alike, and nothing is written. No driver is called: every request here is refused or only
 * quoted.
 */
class OrchestratorChoiceTests extends BookingFixture {

    private static final String SUFFIX = UUID.randomUUID().toString().substring(0, 8);

    private static final String SLURM_POOL = "orch-slurm-" + SUFFIX;

    private static final String NO_DRIVER_POOL = "orch-none-" + SUFFIX;

    private static final Map<String, Setup> POOLS = new HashMap<>();

    @DynamicPropertySource
    static void pools(DynamicPropertyRegistry registry) {
        registry.add("allot.provisioning.pools." + SLURM_POOL + ".driver", () -> "slurm");
        registry.add("allot.provisioning.pools." + SLURM_POOL + ".slurm.slurm-conf", () -> "/nonexistent/slurm.conf");
        registry.add("allot.provisioning.pools." + NO_DRIVER_POOL + ".driver", () -> "none");
    }

    @Test
    void aKubernetesBookingOnASlurmPoolIsRefusedNamingThePoolsThatOfferKubernetesAndWritesNothing() {
        Setup s = setupOn(SLURM_POOL);

        Api.Response refused = book(s, orchestrated(s, "KUBERNETES", "550.54"));

        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        assertThat(refused.contentType()).startsWith("application/problem+json");
        JsonNode error = refused.json().get("errors").get(0);
        assertThat(error.get("field").asString()).isEqualTo("cluster.orchestrator");
        assertThat(error.get("message").asString())
                .contains(
                        "pool " + SLURM_POOL + " builds SLURM clusters only",
                        "pools offering KUBERNETES: any pool without a driver of its own");
        Api.Response quote = quote(s, orchestrated(s, "KUBERNETES", "550.54"));
        assertThat(quote.status()).as(quote.body()).isEqualTo(400);
        assertThat(quote.json().get("errors").get(0).get("field").asString()).isEqualTo("cluster.orchestrator");
        assertThat(writesOf(s.tenant())).isZero();

        Api.Response fits = quote(s, orchestrated(s, "SLURM", "550.54"));
        assertThat(fits.status()).as(fits.body()).isEqualTo(200);
    }

    @Test
    void earliestFitForAnOrchestratorThePoolDoesNotBuildIsRefusedNamingThePoolsThatDo() {
        Setup s = setupOn(SLURM_POOL);
        String earliest = "/api/v1/capacity/earliest?pool=" + SLURM_POOL + "&gpus=8&duration=PT1H&orchestrator=";

        Api.Response refused = api.get(earliest + "KUBERNETES", s.token());
        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        assertThat(refused.contentType()).startsWith("application/problem+json");
        JsonNode error = refused.json().get("errors").get(0);
        assertThat(error.get("field").asString()).isEqualTo("orchestrator");
        assertThat(error.get("message").asString())
                .contains(
                        "pool " + SLURM_POOL + " builds SLURM clusters only",
                        "pools offering KUBERNETES: any pool without a driver of its own");

        Api.Response unknown = api.get(earliest + "NOMAD", s.token());
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(400);
        assertThat(unknown.json().get("errors").get(0).get("field").asString()).isEqualTo("orchestrator");

        Api.Response fits = api.get(earliest + "SLURM", s.token());
        assertThat(fits.status()).as(fits.body()).isEqualTo(200);
        assertThat(fits.json().get("windows")).isNotEmpty();
    }

    @Test
    void aPoolWithNoDriverOffersNoOrchestratorAndTheSlurmPoolIsNamedForSlurm() {
        setupOn(SLURM_POOL); // a configured pool is named once it exists in the inventory
        Setup s = setupOn(NO_DRIVER_POOL);

        Api.Response refused = book(s, orchestrated(s, "SLURM", "550.54"));

        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        JsonNode error = refused.json().get("errors").get(0);
        assertThat(error.get("field").asString()).isEqualTo("cluster.orchestrator");
        assertThat(error.get("message").asString())
                .contains("pool " + NO_DRIVER_POOL + " has no cluster driver", "pools offering SLURM: " + SLURM_POOL);
        assertThat(writesOf(s.tenant())).isZero();
    }

    @Test
    void aCudaDriverThePoolDoesNotOfferIsRefusedNamingTheFieldAndWritesNothing() {
        Setup s = setupOn(SLURM_POOL);

        for (Api.Response refused :
                List.of(book(s, orchestrated(s, "SLURM", "535.104")), quote(s, orchestrated(s, "SLURM", "535.104")))) {
            assertThat(refused.status()).as(refused.body()).isEqualTo(400);
            JsonNode error = refused.json().get("errors").get(0);
            assertThat(error.get("field").asString()).isEqualTo("cluster.cudaDriver");
            assertThat(error.get("message").asString()).contains("550.54", "560.35");
        }
        assertThat(writesOf(s.tenant())).isZero();
    }

    @Test
    void aPoolLeftToTheFakeDriverTakesEitherOrchestrator() {
        Setup s = setup(1, 8, 8, false);
        assertThat(quote(s, orchestrated(s, "KUBERNETES", "550.54")).status()).isEqualTo(200);
        assertThat(quote(s, orchestrated(s, "SLURM", "550.54")).status()).isEqualTo(200);
    }

    /** A new tenant on the configured pool of this name (created, with two nodes, on first use). */
    private synchronized Setup setupOn(String pool) {
        Setup first = POOLS.get(pool);
        if (first != null) {
            return tenantOn(first.gpuType(), pool, first.nodes(), 8, 16, false);
        }
        String type = newGpuType();
        setRateCard(type);
        Api.Response created = api.post(
                "/api/v1/pools",
                adminToken(),
                Map.of("name", pool, "gpuType", type, "gpusPerNode", 8, "region", "eu-test-1"));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        first = tenantOn(type, pool, addNodes(pool, 2, 4), 8, 16, false);
        POOLS.put(pool, first);
        return first;
    }

    private static Map<String, Object> orchestrated(Setup s, String orchestrator, String cudaDriver) {
        Map<String, Object> body = new HashMap<>(body(s, 8, hour(5), hour(6)));
        body.put("cluster", Map.of("orchestrator", orchestrator, "cudaDriver", cudaDriver));
        return body;
    }

    private Api.Response quote(Setup s, Map<String, Object> body) {
        return api.post("/api/v1/tenants/" + s.tenant() + "/quotes", s.token(), body);
    }
}
