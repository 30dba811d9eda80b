package dev.allot.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.identity.signin.UiClientRegistration;
import dev.allot.identity.tokens.HashedTokenAuthorizations;
import dev.allot.support.Api;
import dev.allot.support.FleetTest;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.json.JsonMapper;

/**
 * A copy of the database is worth nothing to an attacker: after real sign-ins (one of them failed), token requests
 * and a booking, no private key, no password, no session id and no usable token (access, ID token, authorization
 * code) can be found anywhere in it, while introspection and revocation, which look tokens up, still work.
 */
class TokenStorageTests extends FleetTest {

    /** A signed JWT of Allot's (RS256, 2048-bit keys: 256 bytes of signature, 342 characters). */
    private static final Pattern JWT =
            Pattern.compile("eyJ[A-Za-z0-9_-]{10,}\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{342}");

    private static final Pattern HEX = Pattern.compile("\\\\\\\\?x([0-9a-f]{2,})");

    @Test
    void theDatabaseHoldsNoPrivateKeyAndNoUsableTokenAfterSignInsAndTokenRequests() throws Exception {
        String tenant = newTenant();
        Client client = serviceAccount(tenant, "MEMBER");
        String clientToken = api.token(client.clientId(), client.clientSecret());
        String admin = adminToken();
        String password = "password-" + unique("p");
        String user = newUserWithPassword(password);

        // the browser's sign-in through Allot's own issuer, with the application as the OIDC client
        Browser browser = new Browser(api.baseUrl());
        String code = browser.signInThroughOidc(user, password);
        assertThat(signedIn(browser.get("/")))
                .as("signed in: the home page does not send to the sign-in")
                .isTrue();

        // the authorization-code flow of another client (here the test plays the UI's public client with PKCE)
        Browser pkce = new Browser(api.baseUrl());
        Map<String, String> issued = pkce.authorizationCodeTokens(user, password);
        assertThat(api.get("/api/v1/me", issued.get("access_token")).status()).isEqualTo(200);

        // a failed sign-in, whose password must not be kept with the failure
        String mistyped = "mistyped-" + unique("p");
        new Browser(api.baseUrl()).failedLogin(user, mistyped);

        // a booking, with the service account's token
        String type = newGpuType();
        setRateCard(type);
        String pool = newPool(type, 8);
        addNodes(pool, 1, 4);
        newProject(tenant, "training");
        setQuota(tenant, type, 8, 8, false);
        Instant start = Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(2));
        Api.Response booked = api.post(
                "/api/v1/tenants/" + tenant + "/reservations",
                clientToken,
                Map.of(
                        "project",
                        "training",
                        "pool",
                        pool,
                        "gpus",
                        8,
                        "startsAt",
                        start.toString(),
                        "endsAt",
                        start.plus(Duration.ofHours(1)).toString(),
                        "cluster",
                        Map.of("orchestrator", "SLURM", "cudaDriver", "550.54", "sshPublicKeys", List.of(SSH_KEY))));
        assertThat(booked.status()).as(booked.toString()).isEqualTo(201);

        Set<String> known = Set.of(
                clientToken,
                admin,
                code,
                issued.get("code"),
                issued.get("access_token"),
                issued.get("id_token"),
                client.clientSecret(),
                ADMIN_SECRET,
                password,
                mistyped,
                browser.sessionId(),
                pkce.sessionId());
        List<String> rows = everyRowOfEveryTable();

        assertThat(rows)
                .as("no issued token, secret or password in clear")
                .noneMatch(row -> known.stream().anyMatch(row::contains));
        Set<String> jwts = new LinkedHashSet<>();
        for (String row : rows) {
            Matcher m = JWT.matcher(row);
            while (m.find()) {
                jwts.add(m.group());
            }
        }
        assertThat(jwts)
                .as("no JWT in the database is accepted as a bearer token")
                .allSatisfy(
                        jwt -> assertThat(api.get("/api/v1/me", jwt).status()).isEqualTo(401));
        assertThat(rows)
                .as("no private key in clear")
                .noneMatch(row -> row.contains("\"kty\"") && row.matches("(?s).*\"(d|p|q|dp|dq)\"\\s*:.*"))
                .noneMatch(row -> row.contains("PRIVATE KEY"));
        assertThat(jdbc.sql("SELECT jwk FROM signing_key").query(String.class).list())
                .isNotEmpty()
                .allSatisfy(jwk -> assertThat(jwk).startsWith("v1:"));
        assertThat(jdbc.sql("SELECT count(*) FROM oauth2_authorization WHERE access_token_value LIKE 'sha256:%'")
                        .query(Long.class)
                        .single())
                .isPositive();
    }

    @Test
    void aSessionIdReadFromTheDatabaseSignsNobodyIn() throws Exception {
        String password = "password-" + unique("p");
        String user = newUserWithPassword(password);
        Browser browser = new Browser(api.baseUrl());
        browser.signInThroughOidc(user, password);
        assertThat(signedIn(browser.get("/")))
                .as("signed in with the cookie itself")
                .isTrue();

        List<String> stored = jdbc.sql("SELECT session_id FROM spring_session")
                .query(String.class)
                .list();
        assertThat(stored).isNotEmpty().doesNotContain(browser.sessionId());
        for (String id : stored) {
            HttpResponse<String> replayed = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(api.baseUrl() + "/"))
                                    .header("Accept", "text/html")
                                    .header(
                                            "Cookie",
                                            "SESSION="
                                                    + Base64.getEncoder()
                                                            .encodeToString(
                                                                    id.strip().getBytes(StandardCharsets.UTF_8)))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(signedIn(replayed))
                    .as("the stored id %s sent as the cookie", id)
                    .isFalse();
        }
    }

    /** The home page answered, or sent elsewhere than to the sign-in. */
    static boolean signedIn(HttpResponse<String> home) {
        return home.statusCode() == 200
                || (home.statusCode() == 302
                        && !home.headers().firstValue("Location").orElse("").contains("/oauth2/authorization"));
    }

    @Test
    void aPasswordTypedInAFailedSignInIsKeptNowhere() throws Exception {
        String user = newUserWithPassword("password-" + unique("p"));
        String mistyped = "mistyped-" + unique("p");
        String underAnotherName = "other-name-" + unique("p");
        new Browser(api.baseUrl()).failedLogin(user, mistyped);
        new Browser(api.baseUrl()).failedLogin(unique("nobody"), underAnotherName);

        assertThat(everyRowOfEveryTable()).noneMatch(row -> row.contains(mistyped) || row.contains(underAnotherName));
    }

    @Test
    void aHashCopiedFromTheDatabaseIsNoToken() {
        String token = api.token(ADMIN_CLIENT, ADMIN_SECRET);
        String stored = jdbc.sql("SELECT access_token_value FROM oauth2_authorization WHERE access_token_value = ?")
                .param(HashedTokenAuthorizations.hash(token))
                .query(String.class)
                .single();
        assertThat(stored).startsWith("sha256:").doesNotContain(token);
        assertThat(api.get("/api/v1/me", stored).status()).isEqualTo(401);
        assertThat(api.get("/api/v1/me", token).status()).isEqualTo(200);
    }

    @Test
    void introspectionAndRevocationStillFindTheTokenByItsValue() throws Exception {
        String token = api.token(ADMIN_CLIENT, ADMIN_SECRET);
        assertThat(introspect(token)).contains("\"active\":true");

        HttpResponse<String> revoked = post("/oauth2/revoke", "token=" + token);
        assertThat(revoked.statusCode()).isEqualTo(200);

        assertThat(introspect(token)).contains("\"active\":false");
        assertThat(jdbc.sql("SELECT access_token_metadata FROM oauth2_authorization WHERE access_token_value = ?")
                        .param(HashedTokenAuthorizations.hash(token))
                        .query(String.class)
                        .single())
                .contains("\"metadata.token.invalidated\":true");
    }

    private String introspect(String token) throws Exception {
        HttpResponse<String> response = post("/oauth2/introspect", "token=" + token);
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body().replace(" ", "");
    }

    private HttpResponse<String> post(String path, String form) throws Exception {
        String basic = Base64.getEncoder()
                .encodeToString((ADMIN_CLIENT + ":" + ADMIN_SECRET).getBytes(StandardCharsets.UTF_8));
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(api.baseUrl() + path))
                                .header("Authorization", "Basic " + basic)
                                .header("Content-Type", "application/x-www-form-urlencoded")
                                .POST(HttpRequest.BodyPublishers.ofString(form))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    @Autowired
    private UserDirectory directory;

    private String newUserWithPassword(String password) {
        String username = unique("u");
        directory.create(username, "User " + username, password, Set.of());
        return username;
    }

    /** Each row of each table as text; binary columns (Java-serialized sessions) decoded, so strings in them show. */
    private List<String> everyRowOfEveryTable() {
        List<String> tables = jdbc.sql("""
				SELECT quote_ident(table_name) FROM information_schema.tables
				WHERE table_schema = 'public' AND table_type = 'BASE TABLE'""").query(String.class).list();
        List<String> rows = new ArrayList<>();
        for (String table : tables) {
            for (String row : jdbc.sql("SELECT t::text FROM " + table + " t")
                    .query(String.class)
                    .list()) {
                rows.add(row);
                Matcher hex = HEX.matcher(row);
                while (hex.find()) {
                    rows.add(new String(
                            HexFormat.of()
                                    .parseHex(
                                            hex.group(1).length() % 2 == 0
                                                    ? hex.group(1)
                                                    : hex.group(1).substring(1)),
                            StandardCharsets.ISO_8859_1));
                }
            }
        }
        return rows;
    }

    /** A cookie-keeping client that follows no redirect, to walk the sign-in flows request by request. */
    static final class Browser {

        private final String base;

        private final HttpClient http = HttpClient.newBuilder()
                .cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();

        Browser(String base) {
            this.base = base;
        }

        HttpResponse<String> get(String pathOrUrl) throws Exception {
            return http.send(
                    HttpRequest.newBuilder(uri(pathOrUrl))
                            .header("Accept", "text/html")
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        HttpResponse<String> postForm(String path, Map<String, String> form) throws Exception {
            String body = form.entrySet().stream()
                    .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                    .collect(Collectors.joining("&"));
            return http.send(
                    HttpRequest.newBuilder(uri(path))
                            .header("Accept", "text/html")
                            .header("Content-Type", "application/x-www-form-urlencoded")
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        /** The session cookie's value, decoded: the session id itself. */
        String sessionId() {
            return ((CookieManager) http.cookieHandler().orElseThrow())
                    .getCookieStore().getCookies().stream()
                            .filter(cookie -> cookie.getName().equals("SESSION"))
                            .map(cookie ->
                                    new String(Base64.getDecoder().decode(cookie.getValue()), StandardCharsets.UTF_8))
                            .findFirst()
                            .orElseThrow();
        }

        /** A sign-in on the login form with a wrong password: sent back to the form with an error. */
        void failedLogin(String username, String password) throws Exception {
            HttpResponse<String> page = get("/login");
            Matcher csrf =
                    Pattern.compile("name=\"_csrf\"\\s+value=\"([^\"]+)\"").matcher(page.body());
            assertThat(csrf.find()).as(page.body()).isTrue();
            HttpResponse<String> failed =
                    postForm("/login", Map.of("username", username, "password", password, "_csrf", csrf.group(1)));
            assertThat(location(failed)).endsWith("/login?error");
            assertThat(get("/login").statusCode()).isEqualTo(200);
        }

        /** The UI's own sign-in: the application is the OIDC client; answers the authorization code it got. */
        String signInThroughOidc(String username, String password) throws Exception {
            String authorize = location(get("/oauth2/authorization/" + UiClientRegistration.ID));
            String callback = location(login(authorize, username, password));
            assertThat(callback).contains("/login/oauth2/code/");
            String code = query(callback, "code");
            HttpResponse<String> signedIn = get(callback);
            assertThat(signedIn.statusCode()).as(signedIn.body()).isEqualTo(302);
            assertThat(location(signedIn)).doesNotContain("error");
            return code;
        }

        /** The authorization-code flow with PKCE, as a public client; answers the code and the tokens. */
        Map<String, String> authorizationCodeTokens(String username, String password) throws Exception {
            return authorizationCodeTokens(authorize -> location(login(authorize, username, password)));
        }

        /**
         * The same flow by a browser that has signed in already (through the UI's OIDC sign-in, say): the
         * authorization answers at once; answers the code and the token endpoint's response.
         */
        Map<String, String> authorizationCodeTokensSignedIn() throws Exception {
            return authorizationCodeTokens(authorize -> location(get(authorize)));
        }

        /** How a browser gets from the authorization request to its callback URL. */
        interface ToCallback {

            String from(String authorize) throws Exception;
        }

        private Map<String, String> authorizationCodeTokens(ToCallback toCallback) throws Exception {
            byte[] random = new byte[32];
            new SecureRandom().nextBytes(random);
            String verifier = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
            String challenge = Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString(
                            MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
            String redirect = base + "/login/oauth2/code/" + UiClientRegistration.ID;
            String authorize = "/oauth2/authorize?response_type=code&client_id=" + UiClientRegistration.CLIENT_ID
                    + "&scope=openid&state=s1&redirect_uri=" + URLEncoder.encode(redirect, StandardCharsets.UTF_8)
                    + "&code_challenge=" + challenge + "&code_challenge_method=S256";
            String callback = toCallback.from(authorize);
            String code = query(callback, "code");
            HttpResponse<String> tokens = postForm(
                    "/oauth2/token",
                    Map.of(
                            "grant_type",
                            "authorization_code",
                            "code",
                            code,
                            "redirect_uri",
                            redirect,
                            "client_id",
                            UiClientRegistration.CLIENT_ID,
                            "code_verifier",
                            verifier));
            assertThat(tokens.statusCode()).as(tokens.body()).isEqualTo(200);
            var json = JsonMapper.builder().build().readTree(tokens.body());
            return Map.of(
                    "code",
                    code,
                    "access_token",
                    json.get("access_token").asString(),
                    "id_token",
                    json.get("id_token").asString(),
                    "code_verifier",
                    verifier,
                    "redirect_uri",
                    redirect);
        }

        /** Asks for the authorization, signs in on the login form, and answers the authorization's redirect. */
        private HttpResponse<String> login(String authorize, String username, String password) throws Exception {
            String toLogin = location(get(authorize));
            assertThat(toLogin).endsWith("/login");
            HttpResponse<String> page = get(toLogin);
            Matcher csrf =
                    Pattern.compile("name=\"_csrf\"\\s+value=\"([^\"]+)\"").matcher(page.body());
            assertThat(csrf.find()).as(page.body()).isTrue();
            HttpResponse<String> loggedIn =
                    postForm("/login", Map.of("username", username, "password", password, "_csrf", csrf.group(1)));
            assertThat(loggedIn.statusCode()).isEqualTo(302);
            String resumed = location(loggedIn);
            assertThat(resumed).contains("/oauth2/authorize");
            HttpResponse<String> authorized = get(resumed);
            assertThat(authorized.statusCode()).as(authorized.body()).isEqualTo(302);
            return authorized;
        }

        private URI uri(String pathOrUrl) {
            return URI.create(pathOrUrl.startsWith("http") ? pathOrUrl : base + pathOrUrl);
        }

        private static String location(HttpResponse<?> response) {
            assertThat(response.statusCode())
                    .as("a redirect from " + response.uri())
                    .isBetween(301, 303);
            return response.headers().firstValue("Location").orElseThrow();
        }

        private static String query(String url, String name) {
            Matcher m = Pattern.compile("[?&]" + name + "=([^&]+)").matcher(url);
            assertThat(m.find()).as(url).isTrue();
            return URLDecoder.decode(m.group(1), StandardCharsets.UTF_8);
        }
    }
}
