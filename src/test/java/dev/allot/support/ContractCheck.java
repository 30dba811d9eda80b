package dev.allot.support;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleRequest;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.ValidationReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.yaml.snakeyaml.Yaml;

/**
 * Checks every answer the integration tests get from {@code /api/**} against the committed {@code openapi.yaml}:
 * a status the operation does not list (its {@code default} does not count), a field its schema does not name, a missing required field, a null
 * where none is allowed, a wrong type or content type. A test whose exchange breaks the contract fails there
 * ({@code -Dallot.contract.check=report} only writes {@code target/contract-violations.txt} instead).
 * <p>
 * Every request the application accepted (a 2xx answer) is checked too: its path and query parameters, headers
 * and body must be ones the contract allows, so that a client generated from it, or a validating proxy, can send
 * what the tests send (issue 29: 14 requests the server accepts were refused by a proxy, among them the README's).
 * A refused request is not checked: tests send malformed ones on purpose.
 */
final class ContractCheck {

    private static final String MODE = System.getProperty("allot.contract.check", "fail");

    private static final AtomicLong CHECKED = new AtomicLong();

    private static final AtomicLong VIOLATIONS = new AtomicLong();

    private static volatile OpenApiInteractionValidator validator;

    /** Off while a test sends malformed requests on purpose ({@link Api#malformedOnPurpose}). */
    static final ThreadLocal<Boolean> REQUESTS_CHECKED = ThreadLocal.withInitial(() -> true);

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            String summary = CHECKED.get() + " API answers and accepted requests checked against openapi.yaml, "
                    + VIOLATIONS.get() + " broke it\n";
            try {
                Files.writeString(
                        Path.of("target", "contract-check.txt"),
                        summary,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            } catch (IOException ex) {
                // the JVM is going away: the count is lost, nothing else
            }
        }));
    }

    private ContractCheck() {}

    static void check(
            HttpRequest request, @Nullable String requestBody, int status, Map<String, String> headers, String body) {
        String method = request.method();
        String path = request.uri().getRawPath();
        if (!path.startsWith("/api/") || "off".equals(MODE)) {
            return;
        }
        if (status >= 200 && status < 300 && REQUESTS_CHECKED.get()) {
            checkRequest(request, requestBody, status);
        }
        SimpleResponse.Builder response = SimpleResponse.Builder.status(status).withBody(body);
        headers.forEach(response::withHeader);
        ValidationReport report = validator()
                .validateResponse(
                        URLDecoder.decode(path, StandardCharsets.UTF_8),
                        Request.Method.valueOf(method),
                        response.build());
        CHECKED.incrementAndGet();
        // a request to no documented operation (a test of routing: 404, 405) has no answer to check against
        if (report.getMessages().stream().anyMatch(message -> message.getKey().startsWith("validation.request."))) {
            return;
        }
        String undocumented = undocumentedStatus(method, URLDecoder.decode(path, StandardCharsets.UTF_8), status);
        if (!report.hasErrors() && undocumented == null) {
            return;
        }
        StringBuilder messages = new StringBuilder();
        if (undocumented != null) {
            messages.append("\n  ").append(undocumented);
        }
        report.getMessages().stream()
                .filter(message -> message.getLevel() == ValidationReport.Level.ERROR)
                .forEach(message -> messages.append("\n  ")
                        .append(message.getKey())
                        .append(": ")
                        .append(message.getMessage()));
        violation("The answer breaks openapi.yaml: ", method + " " + path + " -> " + status + messages, body);
    }

    /** An accepted request the contract does not allow: a generated client or a validating proxy could not send it. */
    private static void checkRequest(HttpRequest sent, @Nullable String body, int status) {
        String path = URLDecoder.decode(sent.uri().getRawPath(), StandardCharsets.UTF_8);
        SimpleRequest.Builder request = new SimpleRequest.Builder(sent.method(), path);
        String query = sent.uri().getRawQuery();
        if (query != null) {
            Map<String, List<String>> parameters = new LinkedHashMap<>();
            for (String pair : query.split("&")) {
                int eq = pair.indexOf('=');
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                parameters.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
            }
            parameters.forEach(request::withQueryParam);
        }
        sent.headers().map().forEach((name, values) -> request.withHeader(name, values));
        if (body != null && !body.isEmpty()) {
            request.withBody(body);
        }
        ValidationReport report = validator().validateRequest(request.build());
        CHECKED.incrementAndGet();
        List<String> errors = report.getMessages().stream()
                .filter(message -> message.getLevel() == ValidationReport.Level.ERROR)
                // a request to no documented operation (routing tests) is the answer check's business
                .filter(message -> !message.getKey().equals("validation.request.path.missing")
                        && !message.getKey().equals("validation.request.operation.notAllowed"))
                // a browser's download link asks for text/html and gets the CSV it links to: what was answered is the
                // answer check's business
                .filter(message -> !message.getKey().equals("validation.request.accept.notAllowed"))
                .map(message -> message.getKey() + ": " + message.getMessage())
                .toList();
        if (!errors.isEmpty()) {
            violation(
                    "The application accepted a request openapi.yaml refuses: ",
                    sent.method() + " " + path + (query == null ? "" : "?" + query) + " -> " + status + "\n  "
                            + String.join("\n  ", errors),
                    body == null ? "" : body);
        }
    }

    private static void violation(String kind, String violation, String body) {
        VIOLATIONS.incrementAndGet();
        if ("report".equals(MODE)) {
            try {
                Files.writeString(
                        Path.of("target", "contract-violations.txt"),
                        violation + "\n",
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
            return;
        }
        throw new AssertionError(
                kind + violation + "\n  body: " + (body.length() > 2000 ? body.substring(0, 2000) + "…" : body));
    }

    /**
     * A status the operation does not list ({@code default} aside, which only says any other problem may come):
     * a client generated from the contract has no type for it.
     */
    private static @Nullable String undocumentedStatus(String method, String path, int status) {
        for (Operation operation : operations()) {
            if (operation.method().equals(method)
                    && operation.path().matcher(path).matches()) {
                return operation.statuses().contains(String.valueOf(status))
                        ? null
                        : "status " + status + " is not documented for " + method + " " + operation.template();
            }
        }
        return null;
    }

    private record Operation(String method, String template, Pattern path, Set<String> statuses) {}

    private static volatile @Nullable List<Operation> operations;

    @SuppressWarnings("unchecked")
    private static List<Operation> operations() {
        if (operations == null) {
            try {
                Map<String, Object> spec = new Yaml().load(Files.readString(Path.of("openapi.yaml")));
                List<Operation> all = new ArrayList<>();
                ((Map<String, Map<String, Object>>) spec.get("paths"))
                        .forEach((template, item) -> item.forEach((method, value) -> {
                            if (value instanceof Map<?, ?> operation
                                    && operation.get("responses") instanceof Map<?, ?> responses) {
                                String regex = Pattern.quote(template).replaceAll("\\{[^}]+}", "\\\\E[^/]+\\\\Q");
                                all.add(new Operation(
                                        method.toUpperCase(), template, Pattern.compile(regex), (Set<String>)
                                                responses.keySet().stream()
                                                        .map(String::valueOf)
                                                        .collect(Collectors.toSet())));
                            }
                        }));
                // the most specific first: a literal segment wins over a {parameter}
                all.sort(Comparator.comparing((Operation operation) ->
                        operation.template().chars().filter(c -> c == '{').count()));
                operations = all;
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }
        return operations;
    }

    private static OpenApiInteractionValidator validator() {
        if (validator == null) {
            synchronized (ContractCheck.class) {
                if (validator == null) {
                    validator = OpenApiInteractionValidator.createForSpecificationUrl(
                                    Path.of("openapi.yaml").toUri().toString())
                            .build();
                }
            }
        }
        return validator;
    }
}
