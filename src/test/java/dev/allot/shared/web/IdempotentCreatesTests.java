package dev.allot.shared.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import dev.allot.support.IntegrationTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Idempotency-Key on the creating POSTs that do not keep the key themselves (tenants, projects, service accounts). */
class IdempotentCreatesTests extends IntegrationTest {

    private long tenants(String slug) {
        return jdbc.sql("SELECT count(*) FROM tenant WHERE slug = ?")
                .param(slug)
                .query(Long.class)
                .single();
    }

    private Api.Response createTenant(String slug, String displayName, String key, String token) {
        return api.post(
                "/api/v1/tenants", token, Map.of("slug", slug, "displayName", displayName), "Idempotency-Key", key);
    }

    @Test
    void aRetryWithTheSameKeyAndBodyGetsTheFirstAnswerAndCreatesNothingMore() {
        String slug = unique("idem");
        String key = UUID.randomUUID().toString();
        Api.Response first = createTenant(slug, "Idempotent", key, adminToken());
        assertThat(first.status()).isEqualTo(201);
        assertThat(first.header("Idempotent-Replayed")).isNull();

        Api.Response retry = createTenant(slug, "Idempotent", key, adminToken());
        assertThat(retry.status()).isEqualTo(201);
        assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(retry.body()).isEqualTo(first.body());
        assertThat(retry.header("Location")).isEqualTo(first.header("Location"));
        assertThat(retry.contentType()).isEqualTo(first.contentType());
        assertThat(tenants(slug)).isOne();

        // Without the key the same request is an ordinary second create, refused as a duplicate.
        assertThat(api.post("/api/v1/tenants", adminToken(), Map.of("slug", slug, "displayName", "Idempotent"))
                        .status())
                .isEqualTo(409);
    }

    @Test
    void theSameKeyWithAnotherBodyIsRefusedAndWritesNothing() {
        String slug = unique("idem");
        String key = UUID.randomUUID().toString();
        assertThat(createTenant(slug, "First", key, adminToken()).status()).isEqualTo(201);
        String other = unique("idem");
        Api.Response reused = createTenant(other, "Second", key, adminToken());
        assertThat(reused.status()).isEqualTo(422);
        assertThat(reused.contentType()).startsWith("application/problem+json");
        assertThat(reused.json().get("code").asString()).isEqualTo("idempotency_key_reused");
        assertThat(tenants(other)).isZero();
    }

    @Test
    void aRequestThatCreatedNothingKeepsNothingSoItMayBeCorrectedAndRetriedWithItsKey() {
        String slug = unique("idem");
        String key = UUID.randomUUID().toString();
        Api.Response bad = api.post(
                "/api/v1/tenants",
                adminToken(),
                Map.of("slug", "Not A Slug!", "displayName", "x"),
                "Idempotency-Key",
                key);
        assertThat(bad.status()).isEqualTo(400);
        assertThat(jdbc.sql("SELECT count(*) FROM idempotent_request WHERE idempotency_key = ?")
                        .param(key)
                        .query(Long.class)
                        .single())
                .isZero();
        // The corrected request is a different body: with nothing kept, the key is free for it.
        assertThat(createTenant(slug, "Fixed", key, adminToken()).status()).isEqualTo(201);
        assertThat(tenants(slug)).isOne();
    }

    @Test
    void keysBelongToTheirCaller() {
        String tenant = newTenant("idem");
        String key = UUID.randomUUID().toString();
        String firstAdmin = tenantToken(tenant, "TENANT_ADMIN");
        String secondAdmin = tenantToken(tenant, "TENANT_ADMIN");
        Api.Response mine = api.post(
                "/api/v1/tenants/" + tenant + "/projects",
                firstAdmin,
                Map.of("slug", "alpha", "displayName", "Alpha"),
                "Idempotency-Key",
                key);
        Api.Response theirs = api.post(
                "/api/v1/tenants/" + tenant + "/projects",
                secondAdmin,
                Map.of("slug", "beta", "displayName", "Beta"),
                "Idempotency-Key",
                key);
        assertThat(mine.status()).isEqualTo(201);
        assertThat(theirs.status()).isEqualTo(201);
        assertThat(theirs.header("Idempotent-Replayed")).isNull();
    }

    @Test
    void aSecretShownOnceIsNeverReplayedNorKept() {
        String tenant = newTenant("idem");
        String key = UUID.randomUUID().toString();
        String admin = tenantToken(tenant, "TENANT_ADMIN");
        Api.Response created = api.post(
                "/api/v1/tenants/" + tenant + "/service-accounts",
                admin,
                Map.of("name", "nightly"),
                "Idempotency-Key",
                key);
        assertThat(created.status()).isEqualTo(201);
        String secret = created.json().get("clientSecret").asString();

        Api.Response retry = api.post(
                "/api/v1/tenants/" + tenant + "/service-accounts",
                admin,
                Map.of("name", "nightly"),
                "Idempotency-Key",
                key);
        assertThat(retry.status()).isEqualTo(409);
        assertThat(retry.json().get("code").asString()).isEqualTo("idempotency_key_used");
        assertThat(retry.json().get("location").asString()).isEqualTo(created.header("Location"));
        assertThat(retry.body()).doesNotContain(secret);
        assertThat(jdbc.sql("SELECT count(*) FROM service_account WHERE tenant_slug = ? AND name = 'nightly'")
                        .param(tenant)
                        .query(Long.class)
                        .single())
                .isOne();
        assertThat(jdbc.sql("SELECT body IS NULL FROM idempotent_request WHERE idempotency_key = ?")
                        .param(key)
                        .query(Boolean.class)
                        .single())
                .isTrue();
    }

    @Test
    void aRetryRacingItsTwinNeverCreatesTwice() throws Exception {
        String slug = unique("idem");
        String key = UUID.randomUUID().toString();
        String token = adminToken();
        CyclicBarrier start = new CyclicBarrier(6);
        List<Callable<Api.Response>> twins = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            twins.add(() -> {
                start.await();
                return createTenant(slug, "Raced", key, token);
            });
        }
        List<Api.Response> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(6)) {
            for (Future<Api.Response> twin : pool.invokeAll(twins)) {
                answers.add(twin.get());
            }
        }
        // Each twin either ran, was replayed the first answer, or found the first still running.
        assertThat(answers).allSatisfy(answer -> assertThat(answer.status()).isIn(201, 409));
        assertThat(answers.stream()
                        .filter(answer -> answer.status() == 201)
                        .map(Api.Response::body)
                        .distinct())
                .hasSize(1);
        assertThat(answers.stream()
                        .filter(answer -> answer.status() == 201 && answer.header("Idempotent-Replayed") == null))
                .as("answers of the one request that ran")
                .hasSize(1);
        assertThat(tenants(slug)).isOne();
    }

    @Test
    void aKeyThatIsTooLongIsBadInput() {
        Api.Response response = createTenant(unique("idem"), "x", "k".repeat(201), adminToken());
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("errors").get(0).get("field").asString()).isEqualTo("Idempotency-Key");
    }
}
