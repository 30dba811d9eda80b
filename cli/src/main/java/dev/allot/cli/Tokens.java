package dev.allot.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.allot.client.ApiException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

/** The client-credentials grant: POST /oauth2/token with HTTP Basic, as RFC 6749 section 4.4 has it. */
final class Tokens {

    record Token(String value, Instant expiresAt) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    private Tokens() {}

    static Token fetch(String url, String clientId, String clientSecret) throws ApiException {
        String basic = Base64.getEncoder()
                .encodeToString((form(clientId) + ":" + form(clientSecret)).getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(URI.create(stripSlash(url) + "/oauth2/token"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Basic " + basic)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials"))
                .build();
        HttpResponse<String> response;
        try (HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()) {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException ex) {
            throw new ApiException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new ApiException(ex);
        }
        if (response.statusCode() != 200) {
            // the token endpoint answers OAuth2 errors ({"error": "invalid_client"}), not problems: say it plainly
            int status = response.statusCode() == 400 || response.statusCode() == 401 ? 401 : response.statusCode();
            throw new ApiException(
                    "sign-in refused",
                    status,
                    response.headers(),
                    "{\"code\":\"sign_in_refused\",\"detail\":\"the token endpoint answered " + response.statusCode()
                            + " " + oauthError(response.body()) + " for client " + clientId + "\"}");
        }
        try {
            JsonNode body = JSON.readTree(response.body());
            return new Token(
                    body.path("access_token").asText(),
                    Instant.now().plusSeconds(body.path("expires_in").asLong(60)));
        } catch (IOException ex) {
            throw new ApiException(ex);
        }
    }

    static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    private static String oauthError(String body) {
        try {
            return JSON.readTree(body).path("error").asText("");
        } catch (IOException ex) {
            return "";
        }
    }

    private static String form(String value) {
        return java.net.URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
