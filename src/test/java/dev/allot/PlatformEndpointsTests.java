package dev.allot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import dev.allot.support.IntegrationTest;
import org.junit.jupiter.api.Test;

class PlatformEndpointsTests extends IntegrationTest {

    @Test
    void healthProbesAreOpenMetricsNeedTheScrapeTokenAndNothingElseIsExposed() {
        assertThat(api.get("/actuator/health/liveness", null).body()).contains("\"UP\"");
        assertThat(api.get("/actuator/health/readiness", null).body()).contains("\"UP\"");
        Api.Response metrics = api.get("/actuator/prometheus", METRICS_TOKEN, "Accept", "text/plain");
        assertThat(metrics.status()).isEqualTo(200);
        assertThat(metrics.body()).contains("jvm_memory_used_bytes", "http_server_requests", "allot_scheduler_due");
        assertThat(api.get("/actuator/env", null).status()).isIn(302, 401, 404);
        assertThat(api.get("/actuator/env", adminToken()).status()).isIn(302, 401, 404);
    }

    @Test
    void responsesCarryTheUsualSecurityHeadersAndARequestId() {
        for (Api.Response response :
                new Api.Response[] {api.get("/api/v1/me", adminToken()), api.get("/login", null)}) {
            assertThat(response.header("x-content-type-options")).isEqualTo("nosniff");
            assertThat(response.header("x-frame-options")).isEqualTo("DENY");
            assertThat(response.header("content-security-policy"))
                    .contains("default-src 'self'", "frame-ancestors 'none'");
            assertThat(response.header("referrer-policy")).isEqualTo("same-origin");
            assertThat(response.header("x-request-id")).isNotBlank();
        }
    }

    @Test
    void theLoginPageCarriesACsrfTokenAndAnonymousPagesGoThroughOidc() {
        assertThat(api.get("/login", null).body()).contains("name=\"_csrf\"");
        Api.Response home = api.get("/", null, "Accept", "text/html");
        assertThat(home.status()).isEqualTo(302);
        assertThat(home.header("location")).endsWith("/oauth2/authorization/allot");
    }

    @Test
    void theOidcDiscoveryDocumentNamesTheIssuer() {
        Api.Response discovery = api.get("/.well-known/openid-configuration", null);
        assertThat(discovery.status()).isEqualTo(200);
        assertThat(discovery.json().get("issuer").asString()).isEqualTo(api.baseUrl());
        assertThat(discovery.json().get("token_endpoint").asString()).isEqualTo(api.baseUrl() + "/oauth2/token");
    }

    @Test
    void problemsAreCountedByTheirCode() {
        api.get("/api/v1/tenants/no-such-tenant", adminToken());
        String metrics = api.get("/actuator/prometheus", METRICS_TOKEN, "Accept", "text/plain")
                .body();
        assertThat(metrics).containsPattern("allot_api_problems_total\\{code=\"not_found\",status=\"404\"} [1-9]");
    }
}
