package dev.allot.provisioning.driver.slurm;

import dev.allot.provisioning.LifecycleTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.test.annotation.DirtiesContext;
import tools.jackson.databind.JsonNode;

/**
 * The whole lifecycle on the real slurmctld and slurmds ({@link SlurmCluster}) with checks running the stand-in
 * executable, which prints the recordings a test puts into {@link #recordings} (a subclass creates the folder and
 * configures its pools with {@link SlurmCluster#standInPool} in its {@code @DynamicPropertySource}).
 */
@ExtendWith(SlurmCluster.class)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
abstract class SlurmStandInTest extends LifecycleTest {

    static final Path OUTPUTS = Path.of("src/test/resources/health-outputs").toAbsolutePath();

    static SlurmCluster slurm;

    static Path recordings;

    @BeforeAll
    static void cluster(SlurmCluster cluster) {
        slurm = cluster;
    }

    static Path newRecordings(String name) throws IOException {
        recordings = SlurmCluster.newRecordings(name);
        return recordings;
    }

    /** The stand-in prints this fixture for {@code file} ({@code <node>.<KIND>}, {@code default.<KIND>}, ...). */
    static void record(String file, String fixture) throws IOException {
        Files.copy(OUTPUTS.resolve(fixture), recordings.resolve(file), StandardCopyOption.REPLACE_EXISTING);
    }

    List<String> booked(Setup s, String id) {
        return api.get(path(s, id), s.token())
                .json()
                .get("nodes")
                .valueStream()
                .map(JsonNode::asString)
                .toList();
    }

    static List<String> details(JsonNode cluster) {
        return cluster.get("timeline")
                .valueStream()
                .map(e -> e.get("detail").asString())
                .toList();
    }
}
