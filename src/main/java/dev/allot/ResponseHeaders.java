package dev.allot;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The response headers clients rely on, named once under {@code components/headers} and referred to where they
 * come: {@code X-Request-Id} on every answer, {@code Retry-After} on 429 and 503, {@code Location} and
 * {@code Idempotent-Replayed} on the answers of creating POSTs, {@code ETag} on the answers about a resource
 * that an update must name in {@code If-Match}. None is marked required: the contract check of the tests
 * validates them where they are sent.
 */
final class ResponseHeaders {

    private static final String REF = "#/components/headers/";

    private ResponseHeaders() {}

    static void describe(OpenAPI openApi) {
        components(openApi);
        Set<String> versioned = new HashSet<>();
        openApi.getPaths()
                .forEach((path, item) -> item.readOperations().forEach(operation -> {
                    if (operation.getParameters() != null
                            && operation.getParameters().stream()
                                    .anyMatch(parameter -> "If-Match".equalsIgnoreCase(parameter.getName()))) {
                        versioned.add(path);
                    }
                }));
        openApi.getPaths()
                .forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
                    if (operation.getResponses() == null) {
                        return;
                    }
                    boolean creates = method == PathItem.HttpMethod.POST
                            && (operation.getResponses().containsKey("201")
                                    || operation.getResponses().containsKey("202"));
                    boolean etag = versioned.contains(path) && method != PathItem.HttpMethod.DELETE
                            || creates && path.endsWith("/reservations");
                    operation.getResponses().forEach((status, response) -> {
                        add(response, "X-Request-Id", "RequestId");
                        if ("429".equals(status) || "503".equals(status)) {
                            add(response, "Retry-After", "RetryAfter");
                        }
                        boolean success = status.startsWith("2");
                        if (creates && success) {
                            add(response, "Idempotent-Replayed", "IdempotentReplayed");
                            // a queued booking (202) is a reservation already, at its own address
                            if ("201".equals(status) || "202".equals(status) && path.endsWith("/reservations")) {
                                add(response, "Location", "Location");
                            }
                        }
                        if (etag && success) {
                            add(response, "ETag", "ETag");
                        }
                    });
                }));
    }

    /** The headers' shared descriptions, which each response refers to. */
    private static void components(OpenAPI openApi) {
        openApi.getComponents()
                .addHeaders(
                        "RequestId",
                        new Header()
                                .description(
                                        "The request's id, as in the logs and in a problem's "
                                                + "requestId: the caller's own X-Request-Id when it sent a sane one, else one Allot made")
                                .schema(new StringSchema()))
                .addHeaders(
                        "RetryAfter",
                        new Header()
                                .description("Seconds to wait before sending the request again")
                                .schema(new IntegerSchema().minimum(BigDecimal.ZERO)))
                .addHeaders(
                        "Location",
                        new Header().description("The created resource").schema(new StringSchema()))
                .addHeaders(
                        "IdempotentReplayed",
                        new Header()
                                .description(
                                        "true: this is the first answer to the same Idempotency-Key and body, sent again")
                                .schema(new StringSchema()._enum(List.of("true"))))
                .addHeaders(
                        "ETag",
                        new Header()
                                .description("The resource's version, to send in If-Match with an update")
                                .schema(new StringSchema()));
    }

    private static void add(ApiResponse response, String name, String component) {
        if (response.get$ref() != null) {
            return;
        }
        Map<String, Header> headers = response.getHeaders();
        if (headers == null || !headers.containsKey(name)) {
            response.addHeaderObject(name, new Header().$ref(REF + component));
        }
    }
}
