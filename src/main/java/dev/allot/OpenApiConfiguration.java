package dev.allot;

import dev.allot.shared.AllotException;
import dev.allot.shared.IdempotencyKey;
import dev.allot.shared.security.Caller;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import io.swagger.v3.oas.models.tags.Tag;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.JsonNode;

/**
 * What the served OpenAPI document says about Allot as a whole. The committed {@code openapi.yaml} is the
 * contract; {@code OpenApiContractTests} fails when the served API and the file differ.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    static {
        // The caller comes from the token, not from the request's parameters.
        SpringDocUtils.getConfig().addRequestWrapperToIgnore(Caller.class);
        // The Idempotency-Key header, claimed by the shared filter; documented below on every create.
        SpringDocUtils.getConfig().addRequestWrapperToIgnore(IdempotencyKey.class);
        // Free-form JSON (audit before/after) is an object, not Jackson's node class.
        SpringDocUtils.getConfig().replaceWithSchema(JsonNode.class, new ObjectSchema());
    }

    /**
     * Every operation may answer a problem: names the RFC 9457 shape once and refers to it from the error
     * statuses every endpoint can give, so clients see the contract for errors too.
     */
    @Bean
    OpenApiCustomizer problemResponses() {
        return openApi -> {
            Schema<?> schema = new ObjectSchema().description("RFC 9457 problem details");
            ProblemSchema.describe(schema);
            openApi.getComponents().addSchemas("Problem", schema);
            Content problem = new Content()
                    .addMediaType(
                            "application/problem+json",
                            new MediaType().schema(new Schema<>().$ref("#/components/schemas/Problem")));
            openApi.getPaths()
                    .forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
                        operation.getResponses().remove("500");
                        PROBLEMS.forEach((status, description) -> operation
                                .getResponses()
                                .putIfAbsent(
                                        status,
                                        new ApiResponse()
                                                .description(description)
                                                .content(problem)));
                        refusals(method.name() + " " + path, operation);
                    }));
        };
    }

    /** Optional request fields are not required; nullable enums list null ({@link RequestSchemas}). */
    @Bean
    OpenApiCustomizer requestSchemas() {
        return RequestSchemas::describe;
    }

    /**
     * Names every operation from {@link ApiOperations}: operationId, tag, summary and description. An operation
     * missing there fails the contract (and so {@code OpenApiContractTests}) instead of shipping as {@code get_7}.
     */
    @Bean
    OpenApiCustomizer operationNames() {
        return openApi -> {
            nameOperations(openApi);
            jsonAnswersFirst(openApi);
            kubeconfigAsYaml(openApi);
        };
    }

    /** Each operation's id, summary, description and tag from {@link ApiOperations}; the tags used, described. */
    private static void nameOperations(OpenAPI openApi) {
        Set<String> tags = new HashSet<>();
        openApi.getPaths()
                .forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
                    String key = method.name() + " " + path;
                    ApiOperations.Named named = ApiOperations.ALL.get(key);
                    if (named == null) {
                        throw new IllegalStateException(key + " has no name, tag and summary in ApiOperations");
                    }
                    operation
                            .operationId(named.operationId())
                            .summary(named.summary())
                            .description(named.description())
                            .tags(List.of(named.tag()));
                    tags.add(named.tag());
                }));
        if (!ApiOperations.TAGS.keySet().containsAll(tags)) {
            throw new IllegalStateException("Tags without a description in ApiOperations.TAGS: " + tags);
        }
        openApi.tags(ApiOperations.TAGS.entrySet().stream()
                .filter(tag -> tags.contains(tag.getKey()))
                .map(tag -> new Tag().name(tag.getKey()).description(tag.getValue()))
                .toList());
    }

    private static void jsonAnswersFirst(OpenAPI openApi) {
        // A CSV download chosen by ?format=csv (for links) shows up as a string alternative of the JSON body:
        // the JSON answer is the object alone.
        openApi.getPaths()
                .values()
                .forEach(item -> item.readOperations().forEach(operation -> {
                    ApiResponse ok = operation.getResponses().get("200");
                    MediaType json = ok == null || ok.getContent() == null
                            ? null
                            : ok.getContent().get("application/json");
                    if (json != null
                            && json.getSchema() != null
                            && json.getSchema().getOneOf() != null) {
                        for (Object alternative : json.getSchema().getOneOf()) {
                            if (alternative instanceof Schema<?> object && object.get$ref() != null) {
                                json.setSchema(new Schema<>().$ref(object.get$ref()));
                                break;
                            }
                        }
                    }
                    // JSON first: generated clients (Python's) take the first media type as the one to ask for
                    if (json != null && ok.getContent().size() > 1) {
                        Content jsonFirst = new Content().addMediaType("application/json", json);
                        ok.getContent().forEach(jsonFirst::putIfAbsent);
                        ok.setContent(jsonFirst);
                    }
                }));
    }

    private static void kubeconfigAsYaml(OpenAPI openApi) {
        // A kubeconfig is YAML, not the JSON the return type suggests.
        Operation kubeconfig = openApi.getPaths()
                .get("/api/v1/tenants/{tenant}/reservations/{id}/cluster/kubeconfig")
                .getGet();
        kubeconfig
                .getResponses()
                .get("200")
                .content(new Content().addMediaType("application/yaml", new MediaType().schema(new StringSchema())));
    }

    /**
     * The refusals an operation gives for reasons of its own ({@link ApiOperations#REFUSALS}), and those that
     * follow from its shape (a creating POST's Idempotency-Key, a body's size and type), each under its status
     * with its code and an example, so a generated client can tell {@code capacity_not_available} from
     * {@code quota_exceeded}.
     */
    private static void refusals(String key, Operation operation) {
        ApiOperations.Named named = ApiOperations.ALL.get(key);
        List<ApiOperations.Refusal> refusals = new ArrayList<>(
                named == null ? List.of() : ApiOperations.REFUSALS.getOrDefault(named.operationId(), List.of()));
        boolean creates = key.startsWith("POST ")
                && (operation.getResponses().containsKey("201")
                        || operation.getResponses().containsKey("202"));
        if (creates) {
            refusals.add(new ApiOperations.Refusal(
                    409,
                    "idempotency_key_in_use",
                    "A request with this Idempotency-Key is still running: retry in a moment"));
            refusals.add(new ApiOperations.Refusal(
                    422, "idempotency_key_reused", "This Idempotency-Key was used with another body"));
        }
        if (operation.getRequestBody() != null) {
            refusals.add(new ApiOperations.Refusal(413, "payload_too_large", "The body is larger than 256 KB"));
            refusals.add(new ApiOperations.Refusal(415, "unsupported_media_type", "Send application/json"));
        }
        Map<Integer, List<ApiOperations.Refusal>> byStatus = new TreeMap<>();
        refusals.forEach(refusal -> byStatus.computeIfAbsent(refusal.status(), s -> new ArrayList<>())
                .add(refusal));
        byStatus.forEach((status, ofStatus) -> {
            MediaType media = new MediaType().schema(new Schema<>().$ref("#/components/schemas/Problem"));
            StringBuilder description = new StringBuilder();
            for (ApiOperations.Refusal refusal : ofStatus) {
                description.append(description.isEmpty() ? "" : "; ").append(refusal.code());
                Map<String, Object> example = new LinkedHashMap<>();
                example.put("type", AllotException.TYPE_BASE + refusal.code());
                example.put("title", HttpStatus.valueOf(status).getReasonPhrase());
                example.put("status", status);
                example.put("detail", refusal.detail());
                example.put("code", refusal.code());
                media.addExamples(
                        refusal.code(), new Example().summary(refusal.code()).value(example));
            }
            ApiResponse existing = operation.getResponses().get(String.valueOf(status));
            String text =
                    (existing != null && existing.getDescription() != null ? existing.getDescription() + "; " : "")
                            + description;
            operation
                    .getResponses()
                    .addApiResponse(
                            String.valueOf(status),
                            new ApiResponse()
                                    .description(text)
                                    .content(new Content().addMediaType("application/problem+json", media)));
        });
    }

    /** Every POST that creates (answers 201, or 202 for work queued) takes an {@code Idempotency-Key}. */
    @Bean
    OpenApiCustomizer idempotencyKeys() {
        return openApi -> {
            openApi.getComponents()
                    .addParameters(
                            "IdempotencyKey",
                            new HeaderParameter()
                                    .name("Idempotency-Key")
                                    .required(false)
                                    .schema(new StringSchema().maxLength(200))
                                    .description(
                                            "Makes the request safe to retry: the same key (per caller, for 24 hours) with the same "
                                                    + "body answers the first answer again with Idempotent-Replayed: true; with another body 422 "
                                                    + "idempotency_key_reused; while the first is still running 409 idempotency_key_in_use"));
            openApi.getPaths().values().forEach(item -> {
                Operation post = item.getPost();
                if (post != null
                        && post.getResponses() != null
                        && (post.getResponses().containsKey("201")
                                || post.getResponses().containsKey("202"))) {
                    post.addParametersItem(new Parameter().$ref("#/components/parameters/IdempotencyKey"));
                }
            });
        };
    }

    /**
     * The response headers ({@link ResponseHeaders}); declared after the customizers that add the responses and
     * parameters it reads.
     */
    @Bean
    OpenApiCustomizer responseHeaders() {
        return ResponseHeaders::describe;
    }

    private static final Map<String, String> PROBLEMS = new LinkedHashMap<>();

    static {
        PROBLEMS.put("400", "Bad input: errors names each bad field");
        PROBLEMS.put("401", "No valid bearer token");
        PROBLEMS.put("403", "The caller's role does not allow this, or the tenant is suspended");
        PROBLEMS.put("404", "No such resource, or one the caller may not see");
        PROBLEMS.put("429", "Too many calls from this caller: retry after the Retry-After header's seconds");
        PROBLEMS.put(
                "503",
                "The database is unreachable for a moment (a failover): retry after the Retry-After "
                        + "header's seconds, with the same Idempotency-Key for a create");
        PROBLEMS.put(
                "default", "Any other problem (409 conflict, 412 stale ETag, 413 too large, 422 refused by a rule)");
    }

    @Bean
    OpenAPI allotOpenApi() {
        // one scheme for every operation: two alternatives (bearer or client credentials) made typescript-fetch
        // overwrite the bearer header with an empty one; how to get the token is said here
        SecurityScheme bearer = new SecurityScheme()
                .type(SecurityScheme.Type.HTTP)
                .scheme("bearer")
                .bearerFormat("JWT")
                .description(
                        "A JWT: POST /oauth2/token with grant_type=client_credentials and a service account's client "
                                + "id and secret as HTTP Basic (OAuth2 client credentials; no scopes: what a client may do follows "
                                + "from its tenant role)");
        return new OpenAPI()
                .info(
                        new Info()
                                .title("Allot API")
                                .version("v1")
                                .description(
                                        "Book dedicated GPU nodes from a shared fleet, get an isolated cluster, pay for what you "
                                                + "used. Errors are RFC 9457 problems (application/problem+json) with a stable type."))
                .components(new Components().addSecuritySchemes("bearer", bearer))
                .servers(List.of(new Server().url("/").description("this Allot")))
                .addSecurityItem(new SecurityRequirement().addList("bearer"));
    }
}
