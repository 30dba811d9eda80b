package dev.allot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * What generated clients take from {@code openapi.yaml} literally: one security scheme to apply (two
 * alternatives made typescript-fetch overwrite the bearer header), and the first media type of an answer as the
 * one to ask for (Python's client asked usage and statements for CSV), and no enum declared inline as the items of
 * an array (Java's {@code native} client did not compile: its query-string code treats such items as strings). That
 * the generated clients compile and work is checked by {@code .ci/generated-clients.sh}, in CI.
 */
class GeneratedClientsContractTests {

    private static final Map<String, Object> CONTRACT = load();

    @Test
    @SuppressWarnings("unchecked")
    void everyOperationListsOneSecurityScheme() {
        assertThat((List<Object>) CONTRACT.get("security")).hasSize(1);
        List<String> withOwn = new ArrayList<>();
        operations().forEach((name, operation) -> {
            if (operation.get("security") instanceof List<?> own && own.size() > 1) {
                withOwn.add(name);
            }
        });
        assertThat(withOwn).isEmpty();
    }

    @Test
    @SuppressWarnings("unchecked")
    void anAnswerInJsonOrCsvListsJsonFirst() {
        List<String> csvFirst = new ArrayList<>();
        operations()
                .forEach((name, operation) -> ((Map<String, Object>) operation.get("responses"))
                        .forEach((status, response) -> {
                            if (((Map<String, Object>) response).get("content") instanceof Map<?, ?> content
                                    && content.size() > 1
                                    && content.containsKey("application/json")
                                    && !"application/json"
                                            .equals(content.keySet().iterator().next())) {
                                csvFirst.add(name + " " + status);
                            }
                        }));
        assertThat(csvFirst).isEmpty();
        assertThat(operations()).containsKey("get /api/v1/tenants/{tenant}/usage");
    }

    @Test
    void noArrayHasItsItemsAsAnInlineEnum() {
        List<String> inline = new ArrayList<>();
        inlineEnumArrays("", CONTRACT, inline);
        assertThat(inline).isEmpty();
    }

    private static void inlineEnumArrays(String at, Object node, List<String> found) {
        if (node instanceof Map<?, ?> map) {
            if (map.get("items") instanceof Map<?, ?> items && items.containsKey("enum")) {
                found.add(at);
            }
            map.forEach((key, value) -> inlineEnumArrays(at + "/" + key, value, found));
        } else if (node instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                inlineEnumArrays(at + "/" + i, list.get(i), found);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> operations() {
        Map<String, Map<String, Object>> operations = new TreeMap<>();
        ((Map<String, Map<String, Object>>) CONTRACT.get("paths"))
                .forEach((path, item) -> item.forEach((method, op) -> {
                    if (op instanceof Map<?, ?> operation && operation.containsKey("responses")) {
                        operations.put(method + " " + path, (Map<String, Object>) operation);
                    }
                }));
        return operations;
    }

    private static Map<String, Object> load() {
        try {
            return new Yaml().load(Files.readString(Path.of("openapi.yaml")));
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
