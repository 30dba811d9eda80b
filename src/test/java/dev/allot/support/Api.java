package dev.allot.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A plain HTTP client for tests, as a team's CI would call Allot: real HTTP, real tokens, raw answers. */
public final class Api {

    public record Response(int status, Map<String, String> headers, String body) {

        public JsonNode json() {
            return JSON.readTree(body);
        }

        public String header(String name) {
            return headers.get(name.toLowerCase());
        }

        public String contentType() {
            return header("content-type");
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    static final JsonMapper JSON = JsonMapper.builder().build();

    private static final HttpClient HTTP = client().build();

    private final String baseUrl;

    private final HttpClient http;

    public Api(int port) {
        this.baseUrl = "http://127.0.0.1:" + port;
        this.http = HTTP;
    }

    /**
     * Calls from another loopback source address (any in 127.0.0.0/8), so the server sees a client of its own
     * ({@code getRemoteAddr()}).
     */
    public Api(String sourceAddress, int port) {
        this.baseUrl = "http://127.0.0.1:" + port;
        try {
            this.http =
                    client().localAddress(InetAddress.getByName(sourceAddress)).build();
        } catch (UnknownHostException ex) {
            throw new IllegalArgumentException(ex);
        }
    }

    private static HttpClient.Builder client() {
        return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).followRedirects(HttpClient.Redirect.NEVER);
    }

    public String baseUrl() {
        return baseUrl;
    }

    /** A client-credentials token, as a pipeline gets one. */
    public Response tokenResponse(String clientId, String clientSecret) {
        String basic =
                Base64.getEncoder().encodeToString((clientId + ":" + clientSecret).getBytes(StandardCharsets.UTF_8));
        return send(
                HttpRequest.newBuilder(URI.create(baseUrl + "/oauth2/token"))
                        .header("Authorization", "Basic " + basic)
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials")),
                "grant_type=client_credentials");
    }

    public String token(String clientId, String clientSecret) {
        Response response = tokenResponse(clientId, clientSecret);
        if (response.status() != 200) {
            throw new AssertionError("No token for " + clientId + ": " + response);
        }
        return response.json().get("access_token").asString();
    }

    public Response get(String path, String token, String... headers) {
        return send(request(path, token, headers).GET(), null);
    }

    public Response delete(String path, String token, String... headers) {
        return send(request(path, token, headers).DELETE(), null);
    }

    public Response post(String path, String token, Object body, String... headers) {
        String text = text(body);
        return send(request(path, token, headers).POST(HttpRequest.BodyPublishers.ofString(text)), text);
    }

    /** A POST with no body, for an operation that takes none (the contract check refuses {@code {}} there). */
    public Response post(String path, String token) {
        return send(request(path, token).POST(HttpRequest.BodyPublishers.noBody()), null);
    }

    public Response put(String path, String token, Object body, String... headers) {
        String text = text(body);
        return send(request(path, token, headers).PUT(HttpRequest.BodyPublishers.ofString(text)), text);
    }

    public Response patch(String path, String token, Object body, String... headers) {
        String text = text(body);
        return send(request(path, token, headers).method("PATCH", HttpRequest.BodyPublishers.ofString(text)), text);
    }

    /**
     * Runs {@code sends} with requests not checked against the contract (answers still are): for a test that sends
     * malformed requests on purpose, some of which the application leniently accepts.
     */
    public static <T> T malformedOnPurpose(Supplier<T> sends) {
        ContractCheck.REQUESTS_CHECKED.set(false);
        try {
            return sends.get();
        } finally {
            ContractCheck.REQUESTS_CHECKED.remove();
        }
    }

    public static String json(Object value) {
        return JSON.writeValueAsString(value);
    }

    private HttpRequest.Builder request(String path, String token, String... headers) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(Integer.getInteger("allot.test.http-timeout", 30)))
                .header("Accept", "application/json, application/problem+json");
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        for (int i = 0; i + 1 < headers.length; i += 2) {
            builder.setHeader(headers[i], headers[i + 1]);
        }
        return builder;
    }

    private static String text(Object body) {
        return body instanceof String s ? s : json(body);
    }

    private Response send(HttpRequest.Builder builder, @Nullable String body) {
        HttpRequest request = builder.build();
        if (request.bodyPublisher().isPresent()
                && request.headers().firstValue("Content-Type").isEmpty()) {
            request = HttpRequest.newBuilder(request, (name, value) -> true)
                    .header("Content-Type", "application/json")
                    .build();
        }
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            Map<String, String> headers = new LinkedHashMap<>();
            response.headers().map().forEach((name, values) -> headers.put(name.toLowerCase(), values.getFirst()));
            ContractCheck.check(request, body, response.statusCode(), headers, response.body());
            return new Response(response.statusCode(), headers, response.body());
        } catch (HttpTimeoutException ex) {
            throw new IllegalStateException(
                    ex.getMessage() + ": " + request.method() + " " + request.uri()
                            + "; the test JVM's threads (the application's included) are in "
                            + ThreadDumps.write("timeout"),
                    ex);
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
