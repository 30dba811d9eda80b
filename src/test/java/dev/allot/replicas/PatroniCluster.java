package dev.allot.replicas;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A PostgreSQL pair under Patroni with etcd, started by {@code .ci/patroni-up.sh} (Debian's {@code patroni},
 * {@code etcd-server}, {@code etcd-client} and the newest PostgreSQL installed) under a temporary folder on free ports. Skipped where
 * those are not installed, unless {@code ALLOT_REQUIRE_HA_TESTS} is set (CI sets it): then their absence fails.
 */
final class PatroniCluster implements AutoCloseable {

    /** The newest PostgreSQL installed the Debian way ({@code /usr/lib/postgresql/<major>/bin}). */
    static final Path PG_BIN = newestPostgres();

    /** One Patroni node: its name, PostgreSQL's address and its REST API's. */
    record Node(String name, String postgres, String api) {}

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    final Path base;

    final List<Node> nodes;

    final String password;

    private PatroniCluster(Path base, List<Node> nodes, String password) {
        this.base = base;
        this.nodes = nodes;
        this.password = password;
    }

    static PatroniCluster start() throws Exception {
        List<String> absent = new ArrayList<>();
        for (String tool : List.of("patroni", "patronictl", "etcd", "etcdctl")) {
            if (!onPath(tool)) {
                absent.add(tool);
            }
        }
        if (!Files.isExecutable(PG_BIN.resolve("postgres"))) {
            absent.add(PG_BIN.resolve("postgres").toString());
        }
        String message = "Patroni is not installed here (missing " + absent
                + "): apt-get install -y patroni etcd-server etcd-client postgresql";
        if (!absent.isEmpty() && System.getenv("ALLOT_REQUIRE_HA_TESTS") != null) {
            throw new IllegalStateException(message + "; ALLOT_REQUIRE_HA_TESTS is set, so this test must run");
        }
        Assumptions.assumeTrue(absent.isEmpty(), message);
        // PostgreSQL runs as the postgres user when the tests run as root: a folder it can reach, not target/
        Path base = Path.of("/tmp", "allot-patroni-" + ProcessHandle.current().pid());
        ProcessBuilder builder = new ProcessBuilder("bash", ".ci/patroni-up.sh", base.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("PG_BIN", PG_BIN.toString());
        Process up = builder.start();
        String out = new String(up.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!up.waitFor(3, TimeUnit.MINUTES) || up.exitValue() != 0) {
            throw new IllegalStateException(".ci/patroni-up.sh failed; see the logs under " + base + "\n" + out);
        }
        Map<String, String> env = new HashMap<>();
        out.lines()
                .filter(line -> line.startsWith("export "))
                .map(line -> line.substring("export ".length()).split("=", 2))
                .forEach(pair -> env.put(pair[0], pair[1]));
        return new PatroniCluster(
                base,
                List.of(
                        new Node("pg1", env.get("PATRONI_PG1"), env.get("PATRONI_API1")),
                        new Node("pg2", env.get("PATRONI_PG2"), env.get("PATRONI_API2"))),
                env.get("PATRONI_PASSWORD"));
    }

    /** The multi-host URL the application uses: whichever node is primary now. */
    String jdbcUrl(String database, String parameters) {
        return "jdbc:postgresql://" + nodes.get(0).postgres() + ","
                + nodes.get(1).postgres() + "/" + database + "?" + parameters;
    }

    String jdbcUrl(Node node, String database) {
        return "jdbc:postgresql://" + node.postgres() + "/" + database;
    }

    /** The node whose REST API answers 200 on {@code /primary}, if any. */
    Optional<Node> primary() {
        return nodes.stream().filter(node -> answers(node, "/primary")).findFirst();
    }

    boolean answers(Node node, String path) {
        try {
            return HTTP.send(
                                    HttpRequest.newBuilder(URI.create("http://" + node.api() + path))
                                            .timeout(Duration.ofSeconds(2))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (IOException ex) {
            return false;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** As when its host dies: {@code kill -9} of the node's Patroni and of its PostgreSQL postmaster. */
    void kill(Node node) throws IOException {
        long patroni = Long.parseLong(
                Files.readString(base.resolve(node.name()).resolve("pid")).strip());
        long postmaster = Long.parseLong(
                Files.readAllLines(base.resolve(node.name()).resolve("data").resolve("postmaster.pid"))
                        .getFirst()
                        .strip());
        ProcessHandle.of(patroni).ifPresent(ProcessHandle::destroyForcibly);
        ProcessHandle.of(postmaster).ifPresent(ProcessHandle::destroyForcibly);
    }

    /** {@code patronictl list}, for the test's output. */
    String list() throws Exception {
        Process list = new ProcessBuilder(
                        "patronictl",
                        "-c",
                        base.resolve("pg1").resolve("patroni.yml").toString(),
                        "list")
                .redirectErrorStream(true)
                .start();
        String out = new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        list.waitFor(30, TimeUnit.SECONDS);
        return out;
    }

    @Override
    public void close() throws Exception {
        Process down = new ProcessBuilder("bash", ".ci/patroni-down.sh", base.toString())
                .inheritIO()
                .start();
        down.waitFor(1, TimeUnit.MINUTES);
        try (var files = Files.walk(base)) {
            files.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        }
    }

    private static Path newestPostgres() {
        Path debian = Path.of("/usr/lib/postgresql");
        try (var versions = Files.list(debian)) {
            return versions.filter(version -> version.getFileName().toString().matches("\\d+"))
                    .max(Comparator.comparingInt(
                            version -> Integer.parseInt(version.getFileName().toString())))
                    .map(version -> version.resolve("bin"))
                    .orElse(debian.resolve("15").resolve("bin"));
        } catch (IOException ex) {
            return debian.resolve("15").resolve("bin");
        }
    }

    private static boolean onPath(String tool) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String folder : path.split(":")) {
            if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, tool))) {
                return true;
            }
        }
        return false;
    }
}
