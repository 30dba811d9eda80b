package dev.allot.shared.web;

import java.util.TreeSet;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What an idempotent request's body says, for comparing a retry with the first request: JSON as parsed, written
 * again with every object's keys in order and no spacing, so that a client (or a proxy) that reorders keys or
 * re-indents sends "the same body" (issue 29). A body that is not JSON is compared byte for byte.
 */
final class JsonFingerprint {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private JsonFingerprint() {}

    static byte[] of(byte[] body) {
        if (body.length == 0) {
            return body;
        }
        try {
            return JSON.writeValueAsBytes(canonical(JSON.readTree(body)));
        } catch (JacksonException notJson) {
            return body;
        }
    }

    private static JsonNode canonical(JsonNode node) {
        if (node instanceof ObjectNode object) {
            ObjectNode sorted = JSON.createObjectNode();
            for (String name : new TreeSet<>(object.propertyNames())) {
                sorted.set(name, canonical(object.get(name)));
            }
            return sorted;
        }
        if (node instanceof ArrayNode array) {
            ArrayNode copy = JSON.createArrayNode();
            array.values().forEach(element -> copy.add(canonical(element)));
            return copy;
        }
        return node;
    }
}
