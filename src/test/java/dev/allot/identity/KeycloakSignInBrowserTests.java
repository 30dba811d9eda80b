package dev.allot.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import dev.allot.support.BrowserTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Allot in external-issuer mode ({@code allot.security.issuer-uri}) against a real Keycloak ({@link KeycloakServer})
 * with the realm of {@code ops/keycloak/allot-realm.json}: the browser signs in through Keycloak's own login page
 * with the OIDC authorization-code flow, Keycloak's realm roles become Allot's platform roles, and a user stays
 * the same Allot user (with the same memberships) when renamed at Keycloak.
 */
@ExtendWith(KeycloakServer.Available.class)
class KeycloakSignInBrowserTests extends BrowserTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The realm file's users, each with the password {@code <username>-password}. */
    private static final List<String> REALM_USERS = List.of("ada", "ben", "ida");

    @DynamicPropertySource
    static void keycloak(DynamicPropertyRegistry registry) {
        registry.add("allot.security.issuer-uri", () -> KeycloakServer.get().issuer());
        registry.add("allot.security.external.client-id", () -> KeycloakServer.CLIENT_ID);
        registry.add(
                "allot.security.external.client-secret",
                () -> KeycloakServer.get().clientSecret());
    }

    @Test
    void theRealmFilesUsersSignInThroughKeycloakWithTheirRoles() {
        forgetEarlierRunsOfTheRealmUsers();

        signInAtKeycloak("ada", "ada-password");
        assertThat(find("#user-name").getText()).isEqualTo("Ada Admin");
        JsonNode ada = me();
        assertThat(ada.get("subject").asString()).isEqualTo("ada");
        assertThat(ada.get("kind").asString()).isEqualTo("USER");
        assertThat(roles(ada)).containsExactly("PLATFORM_ADMIN");
        assertThat(linkedSubject("ada")).isEqualTo("6f1d8a52-2b4e-4c1a-9a6e-0a11a0000001");

        signInAtKeycloak("ida", "ida-password");
        assertThat(roles(me())).containsExactly("AUDITOR");

        // Keycloak's default roles (offline_access, ...) mean nothing to Allot: ben is a plain user
        signInAtKeycloak("ben", "ben-password");
        assertThat(roles(me())).isEmpty();
    }

    @Test
    void aRoleGrantedAtKeycloakIsAnAllotRoleAtTheNextSignIn() {
        String username = unique("kc");
        String id = newUserSignedIn(username);
        assertThat(roles(me())).isEmpty();

        KeycloakServer.get().grantRealmRole(id, "PLATFORM_ADMIN");
        signInAtKeycloak(username, "password-" + username);
        assertThat(roles(me())).containsExactly("PLATFORM_ADMIN");
    }

    @Test
    void aUserRenamedAtKeycloakKeepsTheirAllotIdentityAndMemberships() {
        KeycloakServer keycloak = KeycloakServer.get();
        String username = unique("kc");
        String id = newUserSignedIn(username);
        String tenant = newTenant();
        addMember(tenant, username, "MEMBER");

        String renamed = username + "-renamed";
        keycloak.renameUser(id, renamed);
        signInAtKeycloak(renamed, "password-" + username);
        JsonNode me = me();
        assertThat(me.get("subject").asString()).isEqualTo(username);
        assertThat(me.get("tenants").toString()).contains(tenant).contains("MEMBER");
        assertThat(linkedSubject(username)).isEqualTo(id);

        // someone else who renames themselves at Keycloak to the first user's name gets none of it
        String other = unique("kc");
        String otherId = keycloak.createUser(other, "password-" + other);
        keycloak.renameUser(otherId, username);
        signInAtKeycloakExpectingRefusal(username, "password-" + other);
        assertThat(find("#login-error").getText()).contains("already belongs to another account");
        assertThat(linkedSubject(username)).isEqualTo(id);
        assertThat(jdbc.sql("SELECT count(*) FROM external_identity WHERE subject = ?")
                        .param(otherId)
                        .query(Long.class)
                        .single())
                .isZero();
    }

    /**
     * CI calls the API with Allot's own service accounts (docs/architecture.md): a client-credentials token of Keycloak
     * is not one of Allot's tokens and is refused, while a service account's token works in this mode as in any.
     */
    @Test
    void ciUsesAllotsServiceAccountsAndAKeycloakClientCredentialsTokenIsRefused() {
        KeycloakServer keycloak = KeycloakServer.get();
        String clientId = unique("ci");
        String secret = keycloak.createServiceClient(clientId);
        String keycloakToken = keycloak.clientCredentialsToken(clientId, secret);
        assertThat(api.get("/api/v1/me", keycloakToken).status()).isEqualTo(401);

        String tenant = newTenant();
        Api.Response me = api.get("/api/v1/me", tenantToken(tenant, "MEMBER"));
        assertThat(me.status()).isEqualTo(200);
        assertThat(me.json().get("kind").asString()).isEqualTo("SERVICE_ACCOUNT");
    }

    /** A new user at Keycloak, signed in once (which links its subject to its username); returns its id. */
    private String newUserSignedIn(String username) {
        String id = KeycloakServer.get().createUser(username, "password-" + username);
        signInAtKeycloak(username, "password-" + username);
        assertThat(me().get("subject").asString()).isEqualTo(username);
        return id;
    }

    /**
     * Signs in from a browser with no session at Allot or at Keycloak: Allot sends it to Keycloak's login page,
     * Keycloak back with a code, which Allot exchanges (with its client secret) for the ID token.
     */
    private void signInAtKeycloak(String username, String password) {
        submitKeycloakLogin(username, password);
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("user-name")));
        assertThat(browser.getCurrentUrl()).startsWith(api.baseUrl());
    }

    private void signInAtKeycloakExpectingRefusal(String username, String password) {
        submitKeycloakLogin(username, password);
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("login-error")));
        assertThat(exists("#user-name")).isFalse();
    }

    private void submitKeycloakLogin(String username, String password) {
        // signed out of both: Selenium's deleteAllCookies clears only the current site's cookies
        browser.executeCdpCommand("Network.clearBrowserCookies", Map.of());
        open("/calendar");
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("kc-login")));
        assertThat(browser.getCurrentUrl()).startsWith(KeycloakServer.get().issuer() + "/protocol/openid-connect/auth");
        browser.findElement(By.id("username")).sendKeys(username);
        browser.findElement(By.id("password")).sendKeys(password);
        browser.findElement(By.id("kc-login")).click();
    }

    /** {@code GET /api/v1/me} with the browser's session, as the UI's own scripts call the API. */
    private JsonNode me() {
        open("/api/v1/me");
        return JSON.readTree(browser.findElement(By.tagName("body")).getText());
    }

    private static List<String> roles(JsonNode me) {
        List<String> roles = new ArrayList<>();
        me.get("roles").forEach(role -> roles.add(role.asString()));
        return roles;
    }

    private String linkedSubject(String username) {
        return jdbc.sql("SELECT subject FROM external_identity WHERE username = ?")
                .param(username)
                .query(String.class)
                .single();
    }

    /**
     * The realm file's users have fixed usernames, and each run's Keycloak listens on another port, so is
     * another issuer: a database kept from an earlier run would refuse them as taken.
     */
    private void forgetEarlierRunsOfTheRealmUsers() {
        for (String username : REALM_USERS) {
            jdbc.sql("DELETE FROM external_identity WHERE username = ? AND issuer <> ?")
                    .params(username, KeycloakServer.get().issuer())
                    .update();
        }
    }
}
