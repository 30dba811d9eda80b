package dev.allot.shared.web;

import dev.allot.shared.InstantBounds;
import java.time.Instant;
import java.util.function.Consumer;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.KeyDeserializer;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.MutableCoercionConfig;
import tools.jackson.databind.deser.jdk.StringDeserializer;
import tools.jackson.databind.deser.std.StdScalarDeserializer;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.ext.javatime.deser.InstantDeserializer;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.type.LogicalType;

/**
 * JSON is read as written, or refused: a key given twice, a value of another type than the field's (a number
 * for a string, a string for a number, a fraction for an integer, a scalar for a list), text PostgreSQL cannot
 * store ({@link StorableText}) and an instant outside {@link InstantBounds} are each a 400 naming the field,
 * at any depth of the body, instead of a silent guess or a 500 from the database.
 */
@Component
class StrictJson implements JsonMapperBuilderCustomizer {

    @Override
    public void customize(JsonMapper.Builder builder) {
        builder.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .withCoercionConfig(
                        LogicalType.Textual,
                        refuse(
                                CoercionInputShape.Integer,
                                CoercionInputShape.Float,
                                CoercionInputShape.Boolean,
                                CoercionInputShape.Array,
                                CoercionInputShape.Object))
                .withCoercionConfig(
                        LogicalType.Integer,
                        refuse(
                                CoercionInputShape.String,
                                CoercionInputShape.Float,
                                CoercionInputShape.Boolean,
                                CoercionInputShape.EmptyString))
                .withCoercionConfig(
                        LogicalType.Float,
                        refuse(CoercionInputShape.String, CoercionInputShape.Boolean, CoercionInputShape.EmptyString))
                .withCoercionConfig(
                        LogicalType.Boolean,
                        refuse(
                                CoercionInputShape.String,
                                CoercionInputShape.Integer,
                                CoercionInputShape.Float,
                                CoercionInputShape.EmptyString))
                .withCoercionConfig(
                        LogicalType.Enum,
                        refuse(CoercionInputShape.Integer, CoercionInputShape.Float, CoercionInputShape.EmptyString))
                .withCoercionConfig(
                        LogicalType.DateTime,
                        refuse(CoercionInputShape.Integer, CoercionInputShape.Float, CoercionInputShape.EmptyString))
                .withCoercionConfig(LogicalType.POJO, refuse(CoercionInputShape.EmptyString, CoercionInputShape.String))
                .withCoercionConfig(LogicalType.Collection, refuse(CoercionInputShape.EmptyString))
                .addModule(new SimpleModule("allot-strict-json")
                        .addDeserializer(String.class, new StorableStrings())
                        .addKeyDeserializer(String.class, new StorableKeys())
                        .addDeserializer(Instant.class, new BoundedInstantsFromJson()));
    }

    private static Consumer<MutableCoercionConfig> refuse(CoercionInputShape... shapes) {
        return config -> {
            for (CoercionInputShape shape : shapes) {
                config.setCoercion(shape, CoercionAction.Fail);
            }
        };
    }

    /** A value the field's type could read, refused for what it holds; its message says why. */
    static final class RefusedValueException extends MismatchedInputException {

        private final String reason;

        RefusedValueException(JsonParser parser, String reason, Class<?> type) {
            super(parser, reason, type);
            this.reason = reason;
        }

        String reason() {
            return reason;
        }
    }

    /** Strings as Jackson reads them, refused when PostgreSQL could not store them. */
    static final class StorableStrings extends StdScalarDeserializer<String> {

        StorableStrings() {
            super(String.class);
        }

        @Override
        public LogicalType logicalType() {
            return LogicalType.Textual;
        }

        @Override
        public String deserialize(JsonParser parser, DeserializationContext context) throws JacksonException {
            String text = StringDeserializer.instance.deserialize(parser, context);
            if (!StorableText.storable(text)) {
                throw new RefusedValueException(parser, StorableText.REFUSAL, String.class);
            }
            return text;
        }
    }

    /** Map keys, held to the same rule as string values. */
    static final class StorableKeys extends KeyDeserializer {

        @Override
        public Object deserializeKey(String key, DeserializationContext context) throws JacksonException {
            if (!StorableText.storable(key)) {
                throw new RefusedValueException(context.getParser(), StorableText.REFUSAL, String.class);
            }
            return key;
        }
    }

    /** ISO-8601 instants only (no epoch numbers), within {@link InstantBounds}. */
    static final class BoundedInstantsFromJson extends StdScalarDeserializer<Instant> {

        BoundedInstantsFromJson() {
            super(Instant.class);
        }

        @Override
        public LogicalType logicalType() {
            return LogicalType.DateTime;
        }

        @Override
        public Instant deserialize(JsonParser parser, DeserializationContext context) throws JacksonException {
            if (!parser.hasToken(JsonToken.VALUE_STRING)) {
                throw new RefusedValueException(parser, "must be an ISO-8601 instant, as a string", Instant.class);
            }
            Instant instant = InstantDeserializer.INSTANT.deserialize(parser, context);
            if (instant != null && !InstantBounds.within(instant)) {
                throw new RefusedValueException(parser, InstantBounds.REFUSAL, Instant.class);
            }
            return instant;
        }
    }
}
