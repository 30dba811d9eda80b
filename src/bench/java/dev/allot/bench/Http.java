package dev.allot.bench;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The few HTTP calls the benchmark makes besides the load: tokens, service accounts, the calendar. */
final class Http {

    record Account(String tenant, String clientId, String secret) {}

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private final String base;

    Http(String base) {
        this.base = base;
    }

    /** A client-credentials access token, exactly as a CI pipeline gets one. */
    String token(String clientId, String secret) throws IOException, InterruptedException {
        String basic = Base64.getEncoder()
                .encodeToString((URLEncoder.encode(clientId, StandardCharsets.UTF_8) + ":"
                                + URLEncoder.encode(secret, StandardCharsets.UTF_8))
                        .getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> answer = client.send(
                HttpRequest.newBuilder(URI.create(base + "/oauth2/token"))
                        .header("Authorization", "Basic " + basic)
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200) {
            throw new IllegalStateException(
                    "No token for " + clientId + ": " + answer.statusCode() + " " + answer.body());
        }
        return field(answer.body(), "access_token");
    }

    /** One MEMBER service account per tenant, created through the API by the bootstrap platform admin. */
    List<Account> serviceAccounts(List<Fleet.Tenant> tenants) throws IOException, InterruptedException {
        String admin = token(App.BOOTSTRAP_ID, App.BOOTSTRAP_SECRET);
        List<Account> accounts = new ArrayList<>();
        for (Fleet.Tenant tenant : tenants) {
            HttpResponse<String> created = client.send(
                    HttpRequest.newBuilder(URI.create(base + "/api/v1/tenants/" + tenant.slug() + "/service-accounts"))
                            .header("Authorization", "Bearer " + admin)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"bench\",\"role\":\"MEMBER\"}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (created.statusCode() != 201) {
                throw new IllegalStateException("Service account not created for " + tenant.slug() + ": "
                        + created.statusCode() + " " + created.body());
            }
            accounts.add(new Account(
                    tenant.slug(), field(created.body(), "clientId"), field(created.body(), "clientSecret")));
        }
        return accounts;
    }

    List<String> tokens(List<Account> accounts) throws IOException, InterruptedException {
        List<String> tokens = new ArrayList<>();
        for (Account account : accounts) {
            tokens.add(token(account.clientId(), account.secret()));
        }
        return tokens;
    }

    /** GET, answering the status; the body is read and dropped. */
    int get(String pathAndQuery, String token) throws IOException, InterruptedException {
        HttpResponse<byte[]> answer = client.send(
                HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                        .header("Authorization", "Bearer " + token)
                        .header("Accept", "application/json")
                        .timeout(Duration.ofSeconds(60))
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        return answer.statusCode();
    }

    /** A booking through the API, as a team's CI sends it: the tenant's token and an Idempotency-Key. */
    static HttpRequest booking(String base, String tenant, String token, String idempotencyKey, String json) {
        return HttpRequest.newBuilder(URI.create(base + "/api/v1/tenants/" + tenant + "/reservations"))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", idempotencyKey)
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
    }

    static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*:\\s*\"([^\"]*)\"")
                .matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("No " + name + " in " + json);
        }
        return m.group(1);
    }
}
