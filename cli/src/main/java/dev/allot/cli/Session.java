package dev.allot.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.allot.client.ApiClient;
import dev.allot.client.ApiException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options every command shares, and the signed-in client they lead to: the stored credentials, a token
 * (the cached one while it lasts, else a fresh one, cached back into the same 0600 file) and the generated
 * {@link ApiClient} that sends it.
 */
class Session {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "Credentials file (default: $ALLOT_CONFIG, else ~/.config/allot/credentials).")
    Path config;

    @Option(names = "--tenant", description = "Tenant to act for (default: the one stored by login).")
    String tenant;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FORMAT",
            defaultValue = "text",
            description = "text or json (default: ${DEFAULT-VALUE}).")
    Format output;

    @Option(
            names = "--max-retries",
            defaultValue = "4",
            paramLabel = "N",
            description =
                    "Send a request again up to N times after 429, 502, 503, 504 or a network failure, "
                            + "after the server's Retry-After or an exponential back-off with jitter (default: ${DEFAULT-VALUE}).")
    int maxRetries;

    @Option(
            names = "--timeout",
            defaultValue = "PT1M",
            paramLabel = "DURATION",
            description = "Give up on one request after (ISO-8601; default: ${DEFAULT-VALUE}); a cluster wait's "
                    + "long-poll has ten minutes more.")
    Duration timeout;

    enum Format {
        text,
        json
    }

    private ApiClient client;

    private Credentials credentials;

    Path configFile() {
        return this.config != null ? this.config : Credentials.defaultPath();
    }

    Credentials credentials() {
        if (this.credentials == null) {
            this.credentials = Credentials.read(configFile());
        }
        return this.credentials;
    }

    String tenant() {
        String chosen = this.tenant != null ? this.tenant : credentials().tenant();
        if (chosen == null) {
            throw new CliFailure(
                    ExitCodes.BAD_INPUT, "no tenant: pass --tenant or log in as a tenant's service account");
        }
        return chosen;
    }

    /** The signed-in client, every request retried as --max-retries says, each given --timeout. */
    ApiClient client() throws ApiException {
        if (this.client == null) {
            this.client = client(this.timeout);
        }
        return this.client;
    }

    /** Another signed-in client whose requests may take {@code requestTimeout} (the cluster long-poll). */
    ApiClient client(Duration requestTimeout) throws ApiException {
        Credentials stored = credentials();
        if (!stored.hasTokenValidAt(Instant.now())) {
            Tokens.Token token = Tokens.fetch(stored.url(), stored.clientId(), stored.clientSecret());
            stored = stored.withToken(token.value(), token.expiresAt());
            stored.write(configFile());
            this.credentials = stored;
        }
        String bearer = "Bearer " + stored.accessToken();
        ApiClient api = new ApiClient();
        api.setHttpClientBuilder(RetryingHttpClient.builder(
                ApiClient.createDefaultHttpClientBuilder(),
                new Retries(Math.max(0, this.maxRetries), Duration.ofSeconds(1), Duration.ofSeconds(30), err())));
        api.updateBaseUri(URI.create(Tokens.stripSlash(stored.url())).toString());
        api.setConnectTimeout(Duration.ofSeconds(10));
        api.setReadTimeout(requestTimeout);
        api.setRequestInterceptor((request) -> request.header("Authorization", bearer));
        return api;
    }

    /**
     * GETs a body that is not JSON (a kubeconfig in YAML, usage as CSV): the generated client would parse it as
     * JSON, so this sends the same request, with the same token, and returns the text as it came.
     */
    String text(String path, String accept) throws ApiException {
        ApiClient api = client();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api.getBaseUri() + path))
                .timeout(this.timeout)
                .header("Accept", accept)
                .GET();
        api.getRequestInterceptor().accept(request);
        try {
            HttpResponse<String> response =
                    api.getHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new ApiException("GET " + path, response.statusCode(), response.headers(), response.body());
            }
            return response.body();
        } catch (IOException ex) {
            throw new ApiException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new ApiException(ex);
        }
    }

    static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    boolean json() {
        return this.output == Format.json;
    }

    PrintWriter out() {
        return this.spec.commandLine().getOut();
    }

    PrintWriter err() {
        return this.spec.commandLine().getErr();
    }

    /** Prints a response body as indented JSON, timestamps as ISO-8601. */
    void printJson(Object body) {
        try {
            ObjectMapper mapper = ApiClient.createDefaultObjectMapper()
                    .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                    .enable(SerializationFeature.INDENT_OUTPUT);
            out().println(mapper.writeValueAsString(body));
            out().flush();
        } catch (JsonProcessingException ex) {
            throw new CliFailure(ExitCodes.FAILED, "cannot print the answer: " + ex.getMessage());
        }
    }

    void println(String line) {
        out().println(line);
        out().flush();
    }
}
