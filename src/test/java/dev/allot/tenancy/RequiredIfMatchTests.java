package dev.allot.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import dev.allot.support.IntegrationTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * With {@code allot.api.require-if-match=true}, every update of a versioned resource needs {@code If-Match}: 428
 * without it, and nothing written (issue 29, finding 13: a quota, a budget, a pool and a tenant took blind writes,
 * so the last writer won).
 */
@TestPropertySource(properties = "allot.api.require-if-match=true")
class RequiredIfMatchTests extends IntegrationTest {

    @Test
    void anUpdateWithoutIfMatchIsA428AndChangesNothingWhileStarOrTheCurrentTagGoesThrough() {
        String tenant = newTenant();
        String path = "/api/v1/tenants/" + tenant;
        String before = api.get(path, adminToken()).json().get("displayName").asString();

        Api.Response blind = api.patch(path, adminToken(), Map.of("displayName", "Blind write"));
        assertThat(blind.status()).as(blind.toString()).isEqualTo(428);
        assertThat(blind.json().get("code").asString()).isEqualTo("precondition_required");
        assertThat(api.get(path, adminToken()).json().get("displayName").asString())
                .isEqualTo(before);

        String etag = api.get(path, adminToken()).header("ETag");
        assertThat(api.patch(path, adminToken(), Map.of("displayName", "Read first"), "If-Match", etag)
                        .status())
                .isEqualTo(200);
        assertThat(api.patch(path, adminToken(), Map.of("displayName", "Any version"), "If-Match", "*")
                        .status())
                .isEqualTo(200);

        Map<String, Object> quota = Map.of("policies", List.of());
        assertThat(api.put(path + "/quota", adminToken(), quota).status()).isEqualTo(428);
        assertThat(api.put(path + "/quota", adminToken(), quota, "If-Match", "*")
                        .status())
                .isEqualTo(200);
        Map<String, Object> budget = Map.of("amount", 100, "currency", "USD");
        assertThat(api.put(path + "/budget", adminToken(), budget).status()).isEqualTo(428);
    }

    @Test
    void readsAndCreatesNeedNoIfMatch() {
        String tenant = newTenant();
        assertThat(api.get("/api/v1/tenants/" + tenant, adminToken()).status()).isEqualTo(200);
        assertThat(api.post(
                                "/api/v1/tenants/" + tenant + "/projects",
                                adminToken(),
                                Map.of("slug", "training", "displayName", "Training"))
                        .status())
                .isEqualTo(201);
    }
}
