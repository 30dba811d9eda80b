package dev.allot.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.identity.signin.UiClientRegistration;
import dev.allot.support.Api;
import dev.allot.support.IntegrationTest;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What a browser session, a stray header or a forged forwarding header must not get around: CSRF on session
 * calls, the metrics' scrape token, and the host Allot names itself by.
 */
class WebHardeningTests extends IntegrationTest {

    @Test
    void aSessionCallNeedsItsCsrfTokenWhateverAuthorizationHeaderComesWithIt() throws Exception {
        String tenant = newTenant();
        String user = newUser();
        addMember(tenant, user, "TENANT_ADMIN");
        Session session = Session.signIn(api.baseUrl(), user, "password-" + user);
        String projects = "/api/v1/tenants/" + tenant + "/projects";
        String body = "{\"slug\":\"csrf\",\"displayName\":\"CSRF\"}";

        assertThat(session.post(projects, body).statusCode()).isEqualTo(403);
        assertThat(session.post(projects, body, "Authorization", "Basic eDp4").statusCode())
                .isEqualTo(403);
        assertThat(session.post(projects, body, "Authorization", "Bearer " + adminToken())
                        .statusCode())
                .isEqualTo(403);
        assertThat(api.get(projects, adminToken()).json().get("totalItems").asLong())
                .isZero();

        HttpResponse<String> withToken = session.post(projects, body, "X-CSRF-TOKEN", session.csrf);
        assertThat(withToken.statusCode()).as(withToken.body()).isEqualTo(201);
        // A bearer token alone, with no session cookie, needs no CSRF token.
        assertThat(api.post(projects, adminToken(), Map.of("slug", "bearer", "displayName", "Bearer"))
                        .status())
                .isEqualTo(201);
    }

    @Test
    void anonymousRequestsWriteNoSessionAndTheTokenEndpointAnswersInvalidClient() throws Exception {
        long sessions = jdbc.sql("SELECT count(*) FROM spring_session")
                .query(Long.class)
                .single();
        HttpClient anonymous = HttpClient.newHttpClient();
        for (int i = 0; i < 30; i++) {
            HttpRequest.Builder token = HttpRequest.newBuilder(URI.create(api.baseUrl() + "/oauth2/token"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials"));
            if (i % 2 == 0) {
                token.header("Accept", "*/*");
            }
            HttpResponse<String> refused = anonymous.send(token.build(), HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(401);
            assertThat(refused.headers().firstValue("Content-Type").orElseThrow())
                    .startsWith("application/json");
            assertThat(refused.body()).contains("\"error\":\"invalid_client\"");
            assertThat(refused.headers().allValues("Set-Cookie")).isEmpty();
        }
        for (String path : new String[] {"/api/v1/me", "/css/allot.css", "/favicon.ico", "/openapi.yaml"}) {
            HttpResponse<String> answered = anonymous.send(
                    HttpRequest.newBuilder(URI.create(api.baseUrl() + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(answered.headers().allValues("Set-Cookie")).as(path).isEmpty();
        }
        assertThat(jdbc.sql("SELECT count(*) FROM spring_session")
                        .query(Long.class)
                        .single())
                .isEqualTo(sessions);
    }

    @Test
    void aSessionEndsTwelveHoursAfterItStartedHoweverActive() throws Exception {
        String user = newUser();
        TokenStorageTests.Browser browser = new TokenStorageTests.Browser(api.baseUrl());
        browser.signInThroughOidc(user, "password-" + user);
        startedHoursAgo(user, 11);
        assertThat(TokenStorageTests.signedIn(browser.get("/")))
                .as("11 hours in, still signed in")
                .isTrue();

        startedHoursAgo(user, 13);
        assertThat(TokenStorageTests.signedIn(browser.get("/")))
                .as("13 hours in, signed out")
                .isFalse();
        assertThat(jdbc.sql("SELECT count(*) FROM spring_session WHERE principal_name = ?")
                        .param(user)
                        .query(Long.class)
                        .single())
                .isZero();
    }

    /** Moves the start of the user's session back, as if it had been kept busy since. */
    private void startedHoursAgo(String user, int hours) {
        assertThat(jdbc.sql("""
				UPDATE spring_session SET creation_time = (extract(epoch FROM now()) * 1000)::bigint - ? * 3600000
				WHERE principal_name = ?""").params(hours, user).update()).isEqualTo(1);
    }

    @Test
    void metricsNeedTheScrapeToken() {
        Api.Response anonymous = api.get("/actuator/prometheus", null, "Accept", "text/plain");
        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.header("content-type")).startsWith("application/problem+json");
        assertThat(anonymous.body()).doesNotContain("jvm_memory_used_bytes");
        assertThat(api.get("/actuator/prometheus", "not-the-scrape-token", "Accept", "text/plain")
                        .status())
                .isEqualTo(401);
        // A platform admin's access token is not the scrape token either.
        assertThat(api.get("/actuator/prometheus", adminToken(), "Accept", "text/plain")
                        .status())
                .isEqualTo(401);
        Api.Response scraped = api.get("/actuator/prometheus", METRICS_TOKEN, "Accept", "text/plain");
        assertThat(scraped.status()).isEqualTo(200);
        assertThat(scraped.body()).contains("jvm_memory_used_bytes");
        // Health probes stay open for the orchestrator.
        assertThat(api.get("/actuator/health/readiness", null).status()).isEqualTo(200);
    }

    @Test
    void forwardedHeadersFromAnUntrustedClientChangeNothing() {
        Api.Response discovery = api.get(
                "/.well-known/openid-configuration",
                null,
                "X-Forwarded-Host",
                "evil.example",
                "X-Forwarded-Proto",
                "https",
                "Forwarded",
                "host=evil.example;proto=https");
        assertThat(discovery.json().get("issuer").asString()).isEqualTo(api.baseUrl());
        assertThat(discovery.body()).doesNotContain("evil.example");

        Api.Response toSignIn = api.get("/", null, "Accept", "text/html", "X-Forwarded-Host", "evil.example");
        assertThat(toSignIn.status()).isEqualTo(302);
        assertThat(toSignIn.header("location"))
                .doesNotContain("evil.example")
                .isEqualTo("/oauth2/authorization/" + UiClientRegistration.ID);
    }

    /** A browser signed in on the login form: its session cookie, and the CSRF token of its session. */
    private static final class Session {

        private final String base;

        private final HttpClient http = HttpClient.newBuilder()
                .cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();

        private String csrf = "";

        private Session(String base) {
            this.base = base;
        }

        static Session signIn(String base, String username, String password) throws Exception {
            Session session = new Session(base);
            session.csrf = session.csrfOf(session.get("/login").body());
            String form = Map.of("username", username, "password", password, "_csrf", session.csrf).entrySet().stream()
                    .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                    .collect(Collectors.joining("&"));
            HttpResponse<String> signedIn = session.http.send(
                    HttpRequest.newBuilder(URI.create(base + "/login"))
                            .header("Content-Type", "application/x-www-form-urlencoded")
                            .POST(HttpRequest.BodyPublishers.ofString(form))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(signedIn.statusCode()).isEqualTo(302);
            assertThat(signedIn.headers().firstValue("location").orElse("")).doesNotContain("error");
            // The session changed at sign-in, and its CSRF token with it.
            session.csrf = session.csrfOf(session.get("/login").body());
            return session;
        }

        HttpResponse<String> get(String path) throws Exception {
            return http.send(
                    HttpRequest.newBuilder(URI.create(base + path))
                            .header("Accept", "text/html")
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        HttpResponse<String> post(String path, String json, String... headers) throws Exception {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json));
            for (int i = 0; i < headers.length; i += 2) {
                request.header(headers[i], headers[i + 1]);
            }
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }

        private String csrfOf(String page) {
            Matcher csrf =
                    Pattern.compile("name=\"_csrf\"\\s+value=\"([^\"]+)\"").matcher(page);
            assertThat(csrf.find()).as(page).isTrue();
            return csrf.group(1);
        }
    }
}
