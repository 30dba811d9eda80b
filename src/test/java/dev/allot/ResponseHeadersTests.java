package dev.allot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The response headers clients rely on are in {@code openapi.yaml}, so generated clients can read them.
 */
class ResponseHeadersTests {

    @Test
    @SuppressWarnings("unchecked")
    void theHeadersClientsRelyOnAreDocumented() throws Exception {
        Map<String, Object> paths = (Map<String, Object>) new Yaml()
                .<Map<String, Object>>load(Files.readString(Path.of("openapi.yaml")))
                .get("paths");

        assertThat(headers(paths, "/api/v1/tenants/{tenant}/reservations", "post", "201"))
                .containsKeys("X-Request-Id", "Location", "Idempotent-Replayed", "ETag");
        assertThat(headers(paths, "/api/v1/tenants/{tenant}/reservations/{id}", "get", "200"))
                .containsKey("ETag");
        assertThat(headers(paths, "/api/v1/tenants/{tenant}", "patch", "200")).containsKey("ETag");
        assertThat(headers(paths, "/api/v1/pools", "get", "429")).containsKey("Retry-After");
        assertThat(headers(paths, "/api/v1/pools", "get", "503")).containsKey("Retry-After");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> headers(Map<String, Object> paths, String path, String method, String status) {
        Map<String, Object> operation = (Map<String, Object>) ((Map<String, Object>) paths.get(path)).get(method);
        Map<String, Object> response =
                (Map<String, Object>) ((Map<String, Object>) operation.get("responses")).get(status);
        return (Map<String, Object>) response.getOrDefault("headers", Map.of());
    }
}
