package dev.allot.identity;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.allot.AllotApplication;
import dev.allot.support.Api;
import dev.allot.support.IntegrationTest;
import dev.allot.support.TestDatabase;
import java.io.IOException;
import java.net.CookieManager;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Brute-force protection on the sign-in endpoints and the API, against real PostgreSQL with real tokens and
 * real form logins. Each test calls from a loopback address of its own (127.x.y.z), so its address budget is
 * its own. Limits here are small windows ({@link #LIMITS}), refilled whole at the window's end.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "allot.security.rate-limits.token-per-client.capacity=10",
            "allot.security.rate-limits.token-per-client.period=8s",
            "allot.security.rate-limits.token-per-address.capacity=16",
            "allot.security.rate-limits.token-per-address.period=8s",
            "allot.security.rate-limits.login-per-username.capacity=10",
            "allot.security.rate-limits.login-per-username.period=8s",
            "allot.security.rate-limits.login-per-address.capacity=16",
            "allot.security.rate-limits.login-per-address.period=8s",
            "allot.security.rate-limits.api-per-caller.capacity=40",
            "allot.security.rate-limits.api-per-caller.period=10s",
            "allot.security.rate-limits.backoff.threshold=5",
            "allot.security.rate-limits.backoff.account-threshold=6",
            // the appending proxy of behindAnAppendingProxy... forwards from 127.0.0.1; the tests' clients call from
            // other loopback addresses, which stay untrusted
            "allot.security.trusted-proxies=127.0.0.1",
            // as IntegrationTest: a context of its own must not reconcile other contexts' fake clusters
            "allot.provisioning.lifecycle.wake-on-changes=false"
        })
@ExtendWith(OutputCaptureExtension.class)
class SignInThrottlingTests extends IntegrationTest {

    /** The limits above, for the second replica. */
    private static final String[] LIMITS = {
        "allot.security.rate-limits.token-per-client.capacity=10",
        "allot.security.rate-limits.token-per-client.period=8s",
        "allot.security.rate-limits.token-per-address.capacity=16",
        "allot.security.rate-limits.token-per-address.period=8s",
        "allot.security.rate-limits.login-per-username.capacity=10",
        "allot.security.rate-limits.login-per-username.period=8s",
        "allot.security.rate-limits.login-per-address.capacity=16",
        "allot.security.rate-limits.login-per-address.period=8s",
        "allot.security.rate-limits.api-per-caller.capacity=40",
        "allot.security.rate-limits.api-per-caller.period=10s",
        "allot.security.rate-limits.backoff.threshold=5",
        "allot.security.rate-limits.backoff.account-threshold=6"
    };

    /** One admin token for the whole class: the admin client has a budget of 10 per 8 s here too. */
    private static String sharedAdminToken;

    @Override
    protected String adminToken() {
        if (sharedAdminToken == null) {
            sharedAdminToken = super.adminToken();
        }
        return sharedAdminToken;
    }

    @Test
    void aClientPastItsBudgetIsRefusedUntilItsWindowEnds() throws Exception {
        Client client = serviceAccount(newTenant(), "MEMBER");
        Api from = new Api(newAddress(), port);
        for (int i = 0; i < 10; i++) {
            assertThat(from.tokenResponse(client.clientId(), client.clientSecret())
                            .status())
                    .isEqualTo(200);
        }
        Api.Response refused = from.tokenResponse(client.clientId(), client.clientSecret());
        assertRateLimitedProblem(refused);
        long retryAfter = Long.parseLong(refused.header("Retry-After"));
        assertThat(retryAfter).isBetween(1L, 8L);

        Thread.sleep(retryAfter * 1000 + 200);
        assertThat(from.tokenResponse(client.clientId(), client.clientSecret()).status())
                .isEqualTo(200);
    }

    @Test
    void anAddressPastItsBudgetIsRefusedWhateverClientItNames() {
        Client client = serviceAccount(newTenant(), "MEMBER");
        Api from = new Api(newAddress(), port);
        for (int i = 0; i < 16; i++) {
            assertThat(from.tokenResponse(unique("nobody"), "guess").status()).isEqualTo(401);
        }
        // the right secret of a client that has not been tried yet: refused for the address alone
        assertRateLimitedProblem(from.tokenResponse(client.clientId(), client.clientSecret()));
        // another address is not affected
        assertThat(new Api(newAddress(), port)
                        .tokenResponse(client.clientId(), client.clientSecret())
                        .status())
                .isEqualTo(200);
    }

    @Test
    void theLoginFormRefusesAUsernamePastItsBudgetWithAReadablePage() throws Exception {
        String username = newUser();
        String address = newAddress();
        for (int i = 0; i < 10; i++) {
            HttpResponse<String> signedIn = login(address, username, "password-" + username);
            assertThat(signedIn.statusCode()).isEqualTo(302);
            assertThat(signedIn.headers().firstValue("Location").orElseThrow()).doesNotContain("error");
        }
        HttpResponse<String> refused = login(address, username, "password-" + username);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
        long retryAfter =
                Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow());
        assertThat(refused.body()).contains("Please wait " + retryAfter + " seconds");
        // no session was signed in by the refused attempt
        assertThat(refused.headers().allValues("Set-Cookie")).isEmpty();
    }

    @Test
    void repeatedFailuresEarnADelayThatDoublesAndASuccessClearsIt() throws Exception {
        Client client = serviceAccount(newTenant(), "MEMBER");
        Api from = new Api(newAddress(), port);
        for (int i = 0; i < 5; i++) {
            assertThat(from.tokenResponse(client.clientId(), "wrong-" + i).status())
                    .isEqualTo(401);
        }
        // after the fifth failure even the right secret waits 2^0 s, then 2^1 s after the sixth
        Api.Response refused = from.tokenResponse(client.clientId(), client.clientSecret());
        assertRateLimitedProblem(refused);
        assertThat(refused.header("Retry-After")).isEqualTo("1");
        // not from another address: the delay belongs to the account at the address that failed (a stranger's
        // failures do not lock the owner out), until the account's own threshold across addresses (6 here)
        assertThat(new Api(newAddress(), port)
                        .tokenResponse(client.clientId(), client.clientSecret())
                        .status())
                .isEqualTo(200);

        Thread.sleep(1200);
        assertThat(from.tokenResponse(client.clientId(), "wrong-again").status())
                .isEqualTo(401);
        refused = from.tokenResponse(client.clientId(), client.clientSecret());
        assertRateLimitedProblem(refused);
        assertThat(refused.header("Retry-After")).isEqualTo("2");

        Thread.sleep(2200);
        assertThat(from.tokenResponse(client.clientId(), client.clientSecret()).status())
                .isEqualTo(200);
        // the success cleared the count: one more failure is only a failure
        assertThat(from.tokenResponse(client.clientId(), "wrong-after").status())
                .isEqualTo(401);
        assertThat(from.tokenResponse(client.clientId(), client.clientSecret()).status())
                .isEqualTo(200);
        assertThat(jdbc.sql("SELECT count(*) FROM audit_event WHERE action = 'sign_in.throttled' AND object_id = ?"
                                + " AND after->>'reason' = 'backoff'")
                        .param(client.clientId())
                        .query(Long.class)
                        .single())
                .isEqualTo(2);
    }

    @Test
    void aUsernamePaddedCaseChangedOrFullWidthCountsAgainstItsAccount() throws Exception {
        String username = newUser();
        String fullWidth = username.chars()
                .map(c -> c + 0xFEE0)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                .toString();
        List<String> spellings =
                List.of(" " + username, username + "\t", username.toUpperCase(), "\u00A0" + username, fullWidth);
        String address = newAddress();
        for (String spelling : spellings) {
            HttpResponse<String> failed = login(address, spelling, "wrong-" + unique("p"));
            assertThat(failed.headers().firstValue("Location").orElseThrow())
                    .as(spelling)
                    .endsWith("/login?error");
        }
        // five failures under five spellings are five failures of one account: even its right password waits
        HttpResponse<String> refused = login(address, username, "password-" + username);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(jdbc.sql("SELECT count(*) FROM audit_event WHERE action = 'sign_in.failed' AND object_id = ?")
                        .param(username)
                        .query(Long.class)
                        .single())
                .isEqualTo(spellings.size());
        assertThat(jdbc.sql("SELECT failures FROM sign_in_failure WHERE channel = 'user' AND principal = ?")
                        .param(username)
                        .query(Integer.class)
                        .single())
                .isEqualTo(spellings.size());
    }

    /**
     * Finding 11: anyone could keep an account locked out (about 20 requests per 17 minutes), since the back-off
     * belonged to the account alone. Now a stranger's failures from other addresses earn the account's slower
     * back-off across addresses (from 6 failures here), which refuses fresh addresses, but never the owner signing
     * in from an address that signed in successfully before.
     */
    @Test
    void aStrangersFailuresFromOtherAddressesNeverLockTheOwnerOutOfAnAddressItSignedInFromBefore() throws Exception {
        String username = newUser();
        String password = "password-" + username;
        String home = newAddress();
        assertThat(login(home, username, password)
                        .headers()
                        .firstValue("Location")
                        .orElseThrow())
                .doesNotEndWith("?error");
        // the stranger guesses from address after address, one guess each, until the account's back-off across
        // addresses has grown to 16 s (failures 6, 7, 8, 9, 10: each refused attempt in between counts nothing)
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (failuresOf(username) < 10 && System.nanoTime() < deadline) {
            int status = login(newAddress(), username, "guess-" + unique("p")).statusCode();
            if (status == 429) {
                Thread.sleep(250);
            }
        }
        assertThat(failuresOf(username)).isEqualTo(10);

        // a fresh address is refused by the account's back-off, even with the right password
        HttpResponse<String> fresh = login(newAddress(), username, password);
        assertThat(fresh.statusCode()).isEqualTo(429);
        // the owner, from where they signed in before, is not
        HttpResponse<String> owner = login(home, username, password);
        assertThat(owner.statusCode()).isEqualTo(302);
        assertThat(owner.headers().firstValue("Location").orElseThrow()).doesNotEndWith("?error");
        assertThat(jdbc.sql("SELECT count(*) FROM audit_event WHERE action = 'sign_in.throttled' AND object_id = ?"
                                + " AND after->>'reason' = 'account_backoff'")
                        .param(username)
                        .query(Long.class)
                        .single())
                .isPositive();
        // the known address is kept as a hash only
        assertThat(jdbc.sql("SELECT count(*) FROM sign_in_known_address WHERE principal = ? AND address_hash LIKE ?")
                        .params(username, "%" + home + "%")
                        .query(Long.class)
                        .single())
                .isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM sign_in_known_address WHERE principal = ?")
                        .param(username)
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
    }

    private int failuresOf(String username) {
        return jdbc.sql(
                        "SELECT coalesce(max(failures), 0) FROM sign_in_failure WHERE channel = 'user' AND principal = ?")
                .param(username)
                .query(Integer.class)
                .single();
    }

    @Test
    void behindAnAppendingProxyAForgedForwardedForNamesNoOtherAddress() throws Exception {
        String address = newAddress();
        long before = jdbc.sql("SELECT coalesce(max(id), 0) FROM audit_event")
                .query(Long.class)
                .single();
        try (AppendingProxy proxy = new AppendingProxy(port)) {
            HttpClient client = HttpClient.newBuilder()
                    .localAddress(InetAddress.getByName(address))
                    .build();
            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < 17; i++) {
                String basic = Base64.getEncoder()
                        .encodeToString((unique("nobody") + ":guess").getBytes(StandardCharsets.UTF_8));
                statuses.add(client.send(
                                HttpRequest.newBuilder(URI.create(proxy.url() + "/oauth2/token"))
                                        .header("Authorization", "Basic " + basic)
                                        .header("Content-Type", "application/x-www-form-urlencoded")
                                        // each attempt claims another client address: the proxy appends the one it saw
                                        .header("X-Forwarded-For", "203.0.113." + (i + 1))
                                        .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .statusCode());
            }
            // the address's budget of 16 is spent whatever each attempt claimed
            assertThat(statuses).as(statuses.toString()).containsOnly(401, 429).endsWith(429);
            assertThat(statuses.subList(0, 16)).containsOnly(401);
        }
        assertThat(jdbc.sql("""
				SELECT DISTINCT after->>'sourceAddress' FROM audit_event
				WHERE id > ? AND action LIKE 'sign_in.%' AND after->>'sourceAddress' LIKE '203.0.113.%'""").param(before).query(String.class).list())
                .as("no forged address in the audit")
                .isEmpty();
        assertThat(jdbc.sql(
                                "SELECT count(*) FROM audit_event WHERE action = 'sign_in.failed' AND after->>'sourceAddress' = ?")
                        .param(address)
                        .query(Long.class)
                        .single())
                .isEqualTo(16);
    }

    /**
     * A reverse proxy on 127.0.0.1 that appends the address it was called from to {@code X-Forwarded-For}, as
     * nginx's {@code $proxy_add_x_forwarded_for} and AWS ALB do.
     */
    private static final class AppendingProxy implements AutoCloseable {

        private final HttpServer server;

        private final HttpClient upstream = HttpClient.newHttpClient();

        AppendingProxy(int appPort) throws IOException {
            this.server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
            this.server.createContext("/", exchange -> {
                try (exchange) {
                    String seen = exchange.getRemoteAddress().getAddress().getHostAddress();
                    String claimed = exchange.getRequestHeaders().getFirst("X-Forwarded-For");
                    HttpRequest.Builder forwarded = HttpRequest.newBuilder(
                                    URI.create("http://127.0.0.1:" + appPort + exchange.getRequestURI()))
                            .method(
                                    exchange.getRequestMethod(),
                                    HttpRequest.BodyPublishers.ofByteArray(
                                            exchange.getRequestBody().readAllBytes()))
                            .header("X-Forwarded-For", claimed == null ? seen : claimed + ", " + seen);
                    for (String name : List.of("Authorization", "Content-Type", "Accept")) {
                        String value = exchange.getRequestHeaders().getFirst(name);
                        if (value != null) {
                            forwarded.header(name, value);
                        }
                    }
                    HttpResponse<byte[]> answer =
                            upstream.send(forwarded.build(), HttpResponse.BodyHandlers.ofByteArray());
                    exchange.sendResponseHeaders(
                            answer.statusCode(), answer.body().length == 0 ? -1 : answer.body().length);
                    exchange.getResponseBody().write(answer.body());
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            });
            this.server.start();
        }

        String url() {
            return "http://127.0.0.1:" + this.server.getAddress().getPort();
        }

        @Override
        public void close() {
            this.server.stop(0);
        }
    }

    @Test
    void concurrentFailuresAreAllCounted() throws Exception {
        Client client = serviceAccount(newTenant(), "MEMBER");
        Api from = new Api(newAddress(), port);
        List<Integer> statuses = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String guess = "wrong-" + i;
                answers.add(pool.submit(
                        () -> from.tokenResponse(client.clientId(), guess).status()));
            }
            for (Future<Integer> answer : answers) {
                statuses.add(answer.get());
            }
        }
        long failed = statuses.stream().filter(status -> status == 401).count();
        assertThat(failed).as(statuses.toString()).isGreaterThanOrEqualTo(5);
        assertThat(statuses).as("each either failed or was refused").allMatch(status -> status == 401 || status == 429);
        assertThat(jdbc.sql("SELECT failures FROM sign_in_failure WHERE channel = 'client' AND principal = ?")
                        .param(client.clientId())
                        .query(Integer.class)
                        .single())
                .isEqualTo((int) failed);
    }

    @Test
    void everySignInIsAuditedAndLoggedWithItsSourceAddressButNeverItsSecret(CapturedOutput output) throws Exception {
        Client client = serviceAccount(newTenant(), "MEMBER");
        String username = newUser();
        String address = newAddress();
        Api from = new Api(address, port);
        String wrongSecret = "wrong-secret-" + unique("s");
        String wrongPassword = "wrong-password-" + unique("p");

        assertThat(from.tokenResponse(client.clientId(), client.clientSecret()).status())
                .isEqualTo(200);
        assertThat(from.tokenResponse(client.clientId(), wrongSecret).status()).isEqualTo(401);
        assertThat(login(address, username, "password-" + username)
                        .headers()
                        .firstValue("Location")
                        .orElseThrow())
                .doesNotContain("error");
        assertThat(login(address, username, wrongPassword)
                        .headers()
                        .firstValue("Location")
                        .orElseThrow())
                .endsWith("/login?error");

        assertThat(signIns(client.clientId()))
                .containsExactly(
                        "sign_in.succeeded " + client.clientId() + " client " + address + " null",
                        "sign_in.failed anonymous client " + address + " invalid_client");
        assertThat(signIns(username))
                .containsExactly(
                        "sign_in.succeeded " + username + " user " + address + " null",
                        "sign_in.failed anonymous user " + address + " bad_credentials");
        assertThat(output.getOut())
                .contains("event=sign_in outcome=succeeded channel=client principal=" + client.clientId() + " address="
                        + address + " path=/oauth2/token reason=-")
                .contains("event=sign_in outcome=failed channel=client principal=" + client.clientId() + " address="
                        + address + " path=/oauth2/token reason=invalid_client")
                .contains("event=sign_in outcome=succeeded channel=user principal=" + username + " address=" + address)
                .contains("event=sign_in outcome=failed channel=user principal=" + username + " address=" + address
                        + " path=/login reason=bad_credentials")
                .doesNotContain(client.clientSecret())
                .doesNotContain(wrongSecret)
                .doesNotContain(wrongPassword)
                .doesNotContain("password-" + username);
    }

    @Test
    void aCallerPastItsApiBudgetIsRefusedWithAProblem() {
        String tenant = newTenant();
        String token = tenantToken(tenant, "MEMBER");
        int answered = 0;
        Api.Response last = null;
        while (answered <= 40) {
            last = api.get("/api/v1/tenants/" + tenant, token);
            if (last.status() != 200) {
                break;
            }
            answered++;
        }
        assertThat(answered).isEqualTo(40);
        assertRateLimitedProblem(last);
        assertThat(Long.parseLong(last.header("Retry-After"))).isBetween(1L, 10L);
        // another caller still has its own budget
        assertThat(api.get("/api/v1/tenants/" + tenant, adminToken()).status()).isEqualTo(200);
    }

    @Test
    void twoReplicasOnOneDatabaseShareOneBudget() throws Exception {
        TestDatabase.Connection db = TestDatabase.get();
        Map<String, Object> properties = new HashMap<>(Map.of(
                "server.port",
                "0",
                "spring.datasource.url",
                db.url(),
                "spring.datasource.username",
                db.username(),
                "spring.datasource.password",
                db.password(),
                "allot.security.public-url",
                "",
                "allot.security.bootstrap-client-id",
                ADMIN_CLIENT,
                "allot.security.bootstrap-client-secret",
                ADMIN_SECRET,
                "allot.demo.enabled",
                "false",
                "allot.security.sealing-key",
                SEALING_KEY));
        properties.putAll(Map.of(
                "allot.billing.webhook-secret-key",
                WEBHOOK_SECRET_KEY,
                "allot.billing.allow-loopback-http-webhooks",
                "true",
                "spring.datasource.hikari.maximum-pool-size",
                "8",
                "spring.datasource.hikari.minimum-idle",
                "1",
                "server.shutdown",
                "immediate",
                "spring.lifecycle.timeout-per-shutdown-phase",
                "5s"));
        for (String limit : LIMITS) {
            properties.put(limit.substring(0, limit.indexOf('=')), limit.substring(limit.indexOf('=') + 1));
        }
        Client client = serviceAccount(newTenant(), "MEMBER");
        // as arguments: they win over application.yml, as the environment does in production
        String[] arguments = properties.entrySet().stream()
                .map(property -> "--" + property.getKey() + "=" + property.getValue())
                .toArray(String[]::new);
        try (ConfigurableApplicationContext second =
                new SpringApplicationBuilder(AllotApplication.class).run(arguments)) {
            int secondPort = Integer.parseInt(second.getEnvironment().getProperty("local.server.port", "0"));
            assertThat(secondPort).isPositive().isNotEqualTo(port);
            String address = newAddress();
            List<Api> replicas = List.of(new Api(address, port), new Api(address, secondPort));

            // 16 attempts at once, 8 on each replica: one budget of 10 between them, none lost to a race
            List<Integer> statuses = new ArrayList<>();
            try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
                List<Future<Integer>> answers = new ArrayList<>();
                for (int i = 0; i < 16; i++) {
                    Api replica = replicas.get(i % 2);
                    answers.add(pool.submit(() -> replica.tokenResponse(client.clientId(), client.clientSecret())
                            .status()));
                }
                for (Future<Integer> answer : answers) {
                    statuses.add(answer.get());
                }
            }
            assertThat(statuses.stream().filter(status -> status == 200).count())
                    .as(statuses.toString())
                    .isEqualTo(10);
            assertThat(statuses.stream().filter(status -> status == 429).count())
                    .as(statuses.toString())
                    .isEqualTo(6);

            // a back-off earned on one replica is kept by the other
            Client guessed = serviceAccount(newTenant(), "MEMBER");
            String guesser = newAddress();
            List<Api> guessing = List.of(new Api(guesser, port), new Api(guesser, secondPort));
            for (int i = 0; i < 5; i++) {
                assertThat(guessing.get(i % 2)
                                .tokenResponse(guessed.clientId(), "wrong")
                                .status())
                        .isEqualTo(401);
            }
            // (the back-off belongs to the account at the address that failed)
            assertRateLimitedProblem(guessing.get(1).tokenResponse(guessed.clientId(), guessed.clientSecret()));
            assertRateLimitedProblem(guessing.get(0).tokenResponse(guessed.clientId(), guessed.clientSecret()));
        }
    }

    private List<String> signIns(String principal) {
        return jdbc.sql("""
				SELECT action || ' ' || actor || ' ' || object_type || ' ' || (after->>'sourceAddress') || ' '
				       || coalesce(after->>'reason', 'null')
				FROM audit_event WHERE object_id = ? AND action LIKE 'sign_in.%' ORDER BY id""").param(principal).query(String.class).list();
    }

    private static void assertRateLimitedProblem(Api.Response response) {
        assertThat(response.status()).as(response.toString()).isEqualTo(429);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().get("code").asString()).isEqualTo("rate_limited");
        assertThat(response.json().get("type").asString()).endsWith("/rate_limited");
        assertThat(Long.parseLong(response.header("Retry-After"))).isPositive();
    }

    /** A loopback source address of this test's own (Linux has all of 127.0.0.0/8 on the loopback interface). */
    private static String newAddress() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return "127." + random.nextInt(1, 255) + "." + random.nextInt(0, 256) + "." + random.nextInt(1, 255);
    }

    /** Posts the login form as a browser would: a fresh session, the page's CSRF token, then the form. */
    private HttpResponse<String> login(String address, String username, String password) throws Exception {
        String base = "http://127.0.0.1:" + port;
        HttpClient browser = HttpClient.newBuilder()
                .localAddress(InetAddress.getByName(address))
                .cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        HttpResponse<String> page = browser.send(
                HttpRequest.newBuilder(URI.create(base + "/login"))
                        .header("Accept", "text/html")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher csrf = Pattern.compile("name=\"_csrf\"\\s+value=\"([^\"]+)\"").matcher(page.body());
        assertThat(csrf.find()).as(page.body()).isTrue();
        String form = Map.of("username", username, "password", password, "_csrf", csrf.group(1)).entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return browser.send(
                HttpRequest.newBuilder(URI.create(base + "/login"))
                        .header("Accept", "text/html")
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(form))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
