package dev.allot;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the request side of the contract says about absent values. {@link NullabilityModelConverter} lists every
 * field of a body as required, which is true of answers; a request may leave out what may be {@code null} (the
 * server reads an absent field as {@code null}), so in every schema a request uses those fields are optional. For
 * the few schemas that requests and answers share ({@code QuotaBody}, {@code PolicyBody}, {@code ClusterBody},
 * {@code VolumeBody}, {@code WindowBody}, {@code IdleReclaimBody}) that also says an answer may leave them out,
 * which the server never does: a validating proxy then accepts what the server accepts, at the price of a
 * weaker presence check of those answers' nullable fields.
 * A nullable enum lists {@code null} among its values, or a validator refuses the {@code null} its type allows.
 * And a request's instants are {@code date-time}.
 */
final class RequestSchemas {

    private static final String PREFIX = "#/components/schemas/";

    private RequestSchemas() {}

    static void describe(OpenAPI openApi) {
        if (openApi.getComponents() == null || openApi.getComponents().getSchemas() == null) {
            return;
        }
        Map<String, Schema> schemas = openApi.getComponents().getSchemas();
        Set<String> requests = new HashSet<>();
        Set<String> answers = new HashSet<>();
        openApi.getPaths()
                .values()
                .forEach(item -> item.readOperations().forEach(operation -> {
                    if (operation.getRequestBody() != null
                            && operation.getRequestBody().getContent() != null) {
                        operation
                                .getRequestBody()
                                .getContent()
                                .values()
                                .forEach(media -> reach(media.getSchema(), schemas, requests));
                    }
                    if (operation.getResponses() != null) {
                        operation.getResponses().values().forEach(response -> {
                            if (response.getContent() != null) {
                                response.getContent()
                                        .values()
                                        .forEach(media -> reach(media.getSchema(), schemas, answers));
                            }
                        });
                    }
                }));
        for (String name : requests) {
            Schema<?> schema = schemas.get(name);
            if (schema.getRequired() != null && schema.getProperties() != null) {
                List<String> required = new ArrayList<>(schema.getRequired());
                required.removeIf(field -> nullable(schema.getProperties().get(field)));
                schema.setRequired(required.isEmpty() ? null : required);
            }
            if (!answers.contains(name)) {
                instants(schema);
            }
        }
        schemas.values().forEach(RequestSchemas::nullInNullableEnums);
    }

    /**
     * An instant a request names ({@code startsAt}, {@code endsAt}: the {@code ...At} convention) is read as
     * ISO-8601 text by the server, which words its own 400 when it cannot parse it; the contract says date-time.
     */
    private static void instants(Schema<?> schema) {
        if (schema.getProperties() == null) {
            return;
        }
        schema.getProperties().forEach((name, property) -> {
            boolean text = "string".equals(property.getType())
                    || property.getTypes() != null && property.getTypes().contains("string");
            if (name.endsWith("At") && text && property.getFormat() == null && property.getEnum() == null) {
                property.setFormat("date-time");
            }
        });
    }

    @SuppressWarnings("unchecked")
    private static void nullInNullableEnums(Schema<?> schema) {
        if (schema.getProperties() == null) {
            return;
        }
        for (Schema<?> property : schema.getProperties().values()) {
            List<Object> values = (List<Object>) property.getEnum();
            if (values != null && nullable(property) && !values.contains(null)) {
                ((Schema<Object>) property).addEnumItemObject(null);
            }
        }
    }

    private static boolean nullable(Schema<?> property) {
        if (property == null) {
            return false;
        }
        if (property.getTypes() != null && property.getTypes().contains("null")) {
            return true;
        }
        List<Schema> either = property.getAnyOf() != null ? property.getAnyOf() : property.getOneOf();
        return either != null
                && either.stream()
                        .anyMatch(s -> s.getTypes() != null && s.getTypes().contains("null"));
    }

    /** Adds the schemas {@code schema} refers to, directly or through others, to {@code reached}. */
    private static void reach(Schema<?> schema, Map<String, Schema> schemas, Set<String> reached) {
        if (schema == null) {
            return;
        }
        if (schema.get$ref() != null && schema.get$ref().startsWith(PREFIX)) {
            String name = schema.get$ref().substring(PREFIX.length());
            if (reached.add(name) && schemas.get(name) != null) {
                reach(schemas.get(name), schemas, reached);
            }
            return;
        }
        List<Schema> inner = new ArrayList<>();
        if (schema.getProperties() != null) {
            inner.addAll(schema.getProperties().values());
        }
        if (schema.getItems() != null) {
            inner.add(schema.getItems());
        }
        if (schema.getAdditionalProperties() instanceof Schema<?> values) {
            inner.add(values);
        }
        for (Collection<Schema> part :
                List.of(nonNull(schema.getAnyOf()), nonNull(schema.getOneOf()), nonNull(schema.getAllOf()))) {
            inner.addAll(part);
        }
        inner.forEach(each -> reach(each, schemas, reached));
    }

    private static List<Schema> nonNull(List<Schema> list) {
        return list != null ? list : List.of();
    }
}
