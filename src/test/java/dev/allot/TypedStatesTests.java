package dev.allot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** The states a pipeline waits on are enums in {@code openapi.yaml}, so generated clients get typed fields. */
class TypedStatesTests {

    @Test
    @SuppressWarnings("unchecked")
    void theClusterStateAndItsReservationStatusAreEnums() throws Exception {
        Map<String, Object> document = new Yaml().load(Files.readString(Path.of("openapi.yaml")));
        Map<String, Object> schemas =
                (Map<String, Object>) ((Map<String, Object>) document.get("components")).get("schemas");
        Map<String, Object> properties =
                (Map<String, Object>) ((Map<String, Object>) schemas.get("ClusterStatusBody")).get("properties");

        assertThat((List<String>) ((Map<String, Object>) properties.get("state")).get("enum"))
                .contains("READY", "DEGRADED", "FAILED", "DELETED");
        assertThat((List<String>) ((Map<String, Object>) properties.get("reservationStatus")).get("enum"))
                .contains("CONFIRMED", "CANCELLED");
        assertThat((List<String>) ((Map<String, Object>) properties.get("orchestrator")).get("enum"))
                .containsExactly("KUBERNETES", "SLURM");
    }
}
