package dev.allot.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.identity.signin.UiClientRegistration;
import dev.allot.identity.tokens.HashedTokenAuthorizations;
import dev.allot.identity.tokens.RevokedTokens;
import dev.allot.shared.security.PlatformRole;
import dev.allot.support.Api;
import dev.allot.support.IntegrationTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class TokenTests extends IntegrationTest {

    @Test
    void aServiceAccountGetsATokenAndSeesItselfOnMe() {
        String tenant = newTenant();
        Client client = serviceAccount(tenant, "MEMBER");
        Api.Response token = api.tokenResponse(client.clientId(), client.clientSecret());
        assertThat(token.status()).isEqualTo(200);
        assertThat(token.json().get("token_type").asString()).isEqualTo("Bearer");

        Api.Response me = api.get("/api/v1/me", token.json().get("access_token").asString());
        assertThat(me.status()).isEqualTo(200);
        assertThat(me.json().get("subject").asString()).isEqualTo(client.clientId());
        assertThat(me.json().get("kind").asString()).isEqualTo("SERVICE_ACCOUNT");
        assertThat(me.json().get("tenants").get(0).get("tenant").asString()).isEqualTo(tenant);
        assertThat(me.json().get("tenants").get(0).get("role").asString()).isEqualTo("MEMBER");
    }

    @Test
    void aClientRegisteredBeforeTheCapWasLoweredGetsATokenTheApiAccepts() {
        Client client = serviceAccount(newTenant(), "MEMBER");
        // registered when tokens lived 2 hours; the cap (allot.security.max-token-lifetime) is 1 hour now
        assertThat(jdbc.sql("""
				UPDATE oauth2_registered_client SET token_settings = replace(token_settings,
				    '"settings.token.access-token-time-to-live":["java.time.Duration","PT15M"]',
				    '"settings.token.access-token-time-to-live":["java.time.Duration","PT2H"]')
				WHERE client_id = ?""").param(client.clientId()).update()).isEqualTo(1);
        assertThat(jdbc.sql("SELECT token_settings FROM oauth2_registered_client WHERE client_id = ?")
                        .param(client.clientId())
                        .query(String.class)
                        .single())
                .contains("\"PT2H\"");

        Api.Response token = api.tokenResponse(client.clientId(), client.clientSecret());
        assertThat(token.status()).isEqualTo(200);
        assertThat(token.json().get("expires_in").asLong()).isBetween(14 * 60L, 15 * 60L);
        assertThat(api.get("/api/v1/me", token.json().get("access_token").asString())
                        .status())
                .isEqualTo(200);
    }

    @Test
    void aRevokedAccessTokenIsRefusedAtTheApiAtOnce() throws Exception {
        Client client = serviceAccount(newTenant(), "MEMBER");
        String token = api.token(client.clientId(), client.clientSecret());
        assertThat(api.get("/api/v1/me", token).status()).isEqualTo(200);

        String basic = Base64.getEncoder()
                .encodeToString((client.clientId() + ":" + client.clientSecret()).getBytes(StandardCharsets.UTF_8));
        var revoked = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(api.baseUrl() + "/oauth2/revoke"))
                                .header("Authorization", "Basic " + basic)
                                .header("Content-Type", "application/x-www-form-urlencoded")
                                .POST(BodyPublishers.ofString("token=" + token))
                                .build(),
                        BodyHandlers.ofString());
        assertThat(revoked.statusCode()).isEqualTo(200);

        Api.Response refused = api.get("/api/v1/me", token);
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.body()).contains("revoked");
        assertThat(jdbc.sql("SELECT count(*) FROM revoked_access_token WHERE token_hash = ?")
                        .param(HashedTokenAuthorizations.hash(token))
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
    }

    @Test
    void aTokenRevokedOnAnotherReplicaIsRefusedWithinSeconds() {
        Client client = serviceAccount(newTenant(), "MEMBER");
        String token = api.token(client.clientId(), client.clientSecret());
        assertThat(api.get("/api/v1/me", token).status()).isEqualTo(200);
        // what the replica that revoked it writes
        jdbc.sql("INSERT INTO revoked_access_token (token_hash, expires_at) VALUES (?, now() + interval '15 minutes')")
                .param(HashedTokenAuthorizations.hash(token))
                .update();
        Awaitility.await()
                .atMost(Duration.ofSeconds(2).plus(RevokedTokens.REFRESH))
                .until(() -> api.get("/api/v1/me", token).status() == 401);
    }

    @Test
    void anIdTokenIsNoApiToken() throws Exception {
        String user = newUser();
        var tokens = new TokenStorageTests.Browser(api.baseUrl()).authorizationCodeTokens(user, "password-" + user);
        assertThat(api.get("/api/v1/me", tokens.get("access_token")).status()).isEqualTo(200);
        // same issuer, key and audience (allot-ui), but an ID token
        Api.Response refused = api.get("/api/v1/me", tokens.get("id_token"));
        assertThat(refused.status()).isEqualTo(401);
    }

    @Test
    void theCodeOfAnAuthorizationAfterTheUisOwnSignInIsExchangedOnce() throws Exception {
        String user = newUser();
        TokenStorageTests.Browser browser = new TokenStorageTests.Browser(api.baseUrl());
        browser.signInThroughOidc(user, "password-" + user);
        // signed in through OIDC, the browser is authorized at once; its code is exchanged (it answered 500)
        var tokens = browser.authorizationCodeTokensSignedIn();
        assertThat(api.get("/api/v1/me", tokens.get("access_token")).status()).isEqualTo(200);

        // once only: a second exchange is refused, and revokes what the first one got
        var again = browser.postForm(
                "/oauth2/token",
                Map.of(
                        "grant_type",
                        "authorization_code",
                        "code",
                        tokens.get("code"),
                        "redirect_uri",
                        tokens.get("redirect_uri"),
                        "client_id",
                        UiClientRegistration.CLIENT_ID,
                        "code_verifier",
                        tokens.get("code_verifier")));
        assertThat(again.statusCode()).isEqualTo(400);
        assertThat(again.body()).contains("invalid_grant");
        assertThat(api.get("/api/v1/me", tokens.get("access_token")).status()).isEqualTo(401);
    }

    @Test
    void aWrongSecretGetsNoToken() {
        Client client = serviceAccount(newTenant(), "MEMBER");
        assertThat(api.tokenResponse(client.clientId(), client.clientSecret() + "x")
                        .status())
                .isEqualTo(401);
    }

    @Test
    void aRevokedServiceAccountGetsNoNewTokenAndItsTokenStopsWorking() {
        String tenant = newTenant();
        Client client = serviceAccount(tenant, "MEMBER");
        String token = api.token(client.clientId(), client.clientSecret());
        assertThat(api.get("/api/v1/tenants/" + tenant + "/projects", token).status())
                .isEqualTo(200);

        Api.Response revoked =
                api.delete("/api/v1/tenants/" + tenant + "/service-accounts/" + client.id(), adminToken());
        assertThat(revoked.status()).isEqualTo(200);
        assertThat(revoked.json().get("revokedAt").isNull()).isFalse();

        assertThat(api.tokenResponse(client.clientId(), client.clientSecret()).status())
                .isEqualTo(401);
        Api.Response refused = api.get("/api/v1/tenants/" + tenant + "/projects", token);
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.contentType()).startsWith("application/problem+json");
    }

    @Test
    void anExpiredTokenIsRefused() {
        String user = newUser();
        String expired = signedToken(user, api.baseUrl(), Instant.now().minus(5, ChronoUnit.MINUTES));
        Api.Response response = api.get("/api/v1/me", expired);
        assertThat(response.status()).isEqualTo(401);
        assertThat(response.json().get("type").asString()).endsWith("/unauthenticated");
    }

    @Test
    void aTokenOfAnotherIssuerIsRefused() {
        String user = newUser();
        String foreign =
                signedToken(user, "https://issuer.example.org", Instant.now().plus(5, ChronoUnit.MINUTES));
        assertThat(api.get("/api/v1/me", foreign).status()).isEqualTo(401);
        assertThat(api.get("/api/v1/me", userToken(user)).status()).isEqualTo(200);
    }

    @Test
    void aTokenLivingLongerThanTheMaximumIsRefusedEvenWhenSignedWithOurKey() {
        String admin = newUser(PlatformRole.PLATFORM_ADMIN);
        String yearLong = signedToken(
                admin,
                api.baseUrl(),
                Instant.now().plus(365, ChronoUnit.DAYS),
                Duration.ofDays(365).plusMinutes(1));
        Api.Response refused = api.get("/api/v1/me", yearLong);
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.contentType()).startsWith("application/problem+json");

        String hourLong =
                signedToken(admin, api.baseUrl(), Instant.now().plus(50, ChronoUnit.MINUTES), Duration.ofHours(1));
        assertThat(api.get("/api/v1/me", hourLong).status()).isEqualTo(200);
        String justOver = signedToken(
                admin,
                api.baseUrl(),
                Instant.now().plus(50, ChronoUnit.MINUTES),
                Duration.ofHours(1).plusSeconds(1));
        assertThat(api.get("/api/v1/me", justOver).status()).isEqualTo(401);
    }

    @Test
    void aTokenIssuedInTheFutureIsRefused() {
        String admin = newUser(PlatformRole.PLATFORM_ADMIN);
        String future =
                signedToken(admin, api.baseUrl(), Instant.now().plus(30, ChronoUnit.MINUTES), Duration.ofMinutes(10));
        assertThat(api.get("/api/v1/me", future).status()).isEqualTo(401);
    }

    @Test
    void aTamperedTokenIsRefused() {
        String token = userToken(newUser());
        String[] parts = token.split("\\.");
        String tampered = parts[0] + "." + parts[1] + "." + new StringBuilder(parts[2]).reverse();
        assertThat(api.get("/api/v1/me", tampered).status()).isEqualTo(401);
    }

    @Test
    void noTokenIsA401Problem() {
        Api.Response response = api.get("/api/v1/me", null);
        assertThat(response.status()).isEqualTo(401);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.header("set-cookie")).isNull();
    }

    @Test
    void theBootstrapClientIsAPlatformAdmin() {
        Api.Response me = api.get("/api/v1/me", adminToken());
        assertThat(me.json().get("roles").get(0).asString()).isEqualTo("PLATFORM_ADMIN");
    }

    @Test
    void signingKeysSurviveInTheDatabase() {
        assertThat(jdbc.sql("SELECT count(*) FROM signing_key")
                        .query(Long.class)
                        .single())
                .isPositive();
    }
}
