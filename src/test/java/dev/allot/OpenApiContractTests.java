package dev.allot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import dev.allot.support.IntegrationTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * {@code openapi.yaml} at the project root is the contract: this fails when the served API and the file
 * differ in paths, methods, parameters or request bodies. To refresh the file after a deliberate change, run
 * {@code ./mvnw test -Dtest=OpenApiContractTests -Dallot.openapi.write=true} and review the diff.
 */
class OpenApiContractTests extends IntegrationTest {

    private static final Path CONTRACT = Path.of("openapi.yaml");

    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch");

    @Test
    void theServedApiMatchesTheCommittedContract() throws Exception {
        Api.Response served = api.get("/v3/api-docs.yaml", null, "Accept", "application/vnd.oai.openapi");
        assertThat(served.status()).isEqualTo(200);
        if (Boolean.getBoolean("allot.openapi.write")) {
            Files.writeString(CONTRACT, served.body());
        }
        Map<String, String> actual = operations(new Yaml().load(served.body()));
        Map<String, String> contract = operations(new Yaml().load(Files.readString(CONTRACT)));
        assertThat(actual).as("served API (left) against openapi.yaml").isEqualTo(contract);
    }

    /** Each operation as "METHOD path" to a description of its parameters and request body. */
    @SuppressWarnings("unchecked")
    private static Map<String, String> operations(Map<String, Object> document) {
        Map<String, String> operations = new TreeMap<>();
        var paths = (Map<String, Map<String, Object>>) document.get("paths");
        paths.forEach((path, item) -> item.forEach((method, value) -> {
            if (!METHODS.contains(method)) {
                return;
            }
            var operation = (Map<String, Object>) value;
            Set<String> parameters = new TreeSet<>();
            for (Object parameter : (List<Object>) operation.getOrDefault("parameters", new ArrayList<>())) {
                var p = (Map<String, Object>) parameter;
                parameters.add(p.get("in") + ":" + p.get("name") + (Boolean.TRUE.equals(p.get("required")) ? "!" : ""));
            }
            String body = operation.containsKey("requestBody") ? " body" : "";
            operations.put(method.toUpperCase() + " " + path, parameters + body);
        }));
        return operations;
    }
}
