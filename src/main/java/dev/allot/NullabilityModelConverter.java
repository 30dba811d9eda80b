package dev.allot;

import com.fasterxml.jackson.databind.JavaType;
import io.swagger.v3.core.converter.ModelConverter;
import io.swagger.v3.core.converter.ModelConverterContext;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.media.Schema;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * One rule for absent values in every body: a field is always present, and it may be {@code null} only where the
 * record component says {@code @Nullable}. So each record's schema lists all its fields as {@code required}, and
 * lets the {@code @Nullable} ones also be {@code null} (OpenAPI 3.1: one more type); the contract check of the
 * tests then catches a missing field, or a null where the contract promises a value.
 */
@Component
class NullabilityModelConverter implements ModelConverter {

    @Override
    public Schema resolve(
            io.swagger.v3.core.converter.AnnotatedType type,
            ModelConverterContext context,
            Iterator<ModelConverter> chain) {
        Schema<?> schema = chain.hasNext() ? chain.next().resolve(type, context, chain) : null;
        Class<?> raw = rawClass(type.getType());
        if (raw == null || !raw.isRecord() || schema == null) {
            return schema;
        }
        Schema<?> model = schema;
        if (schema.get$ref() != null) {
            String name = schema.get$ref().substring(schema.get$ref().lastIndexOf('/') + 1);
            model = context.getDefinedModels().get(name);
        }
        if (model == null || model.getProperties() == null) {
            return schema;
        }
        List<String> required = new ArrayList<>(model.getRequired() == null ? List.of() : model.getRequired());
        Map<String, Schema> properties = model.getProperties();
        for (RecordComponent component : raw.getRecordComponents()) {
            Schema<?> property = properties.get(component.getName());
            if (property == null) {
                continue;
            }
            if (!required.contains(component.getName())) {
                required.add(component.getName());
            }
            if (nullable(component)) {
                properties.put(component.getName(), orNull(property));
            }
        }
        model.setRequired(required);
        return schema;
    }

    /** OpenAPI 3.1: {@code null} is one more type; a reference becomes "that, or null". */
    private static Schema<?> orNull(Schema<?> property) {
        if (property.get$ref() != null) {
            Schema<?> reference = new Schema<>().$ref(property.get$ref());
            Schema<?> none = new Schema<>();
            none.addType("null");
            List<Schema> either = List.of(reference, none);
            return new Schema<>().anyOf(either);
        }
        if (property.getTypes() != null && !property.getTypes().isEmpty()) {
            property.addType("null");
        }
        return property;
    }

    private static boolean nullable(RecordComponent component) {
        AnnotatedType annotated = component.getAnnotatedType();
        return annotated.isAnnotationPresent(Nullable.class)
                || component.isAnnotationPresent(Nullable.class)
                || component.getAccessor().getAnnotatedReturnType().isAnnotationPresent(Nullable.class);
    }

    private static @Nullable Class<?> rawClass(Type type) {
        if (type instanceof Class<?> raw) {
            return raw;
        }
        if (type instanceof JavaType java) {
            return java.getRawClass();
        }
        try {
            return Json.mapper().constructType(type).getRawClass();
        } catch (RuntimeException ex) {
            return null;
        }
    }
}
