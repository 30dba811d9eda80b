package dev.allot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The quick start: with no datasource configured Allot starts its own PostgreSQL, seeds the demo once, and
 * keeps its data across restarts.
 */
class EmbeddedStartTests {

    private static final Path DATA = Path.of("target", "embedded-start", "pgdata");

    private static final Path SEALING_KEY = Path.of("target", "embedded-start", "sealing-key");

    @Test
    void startsOnAnEmbeddedPostgresSeedsTheDemoOnceAndKeepsItsDataAcrossRestarts() throws Exception {
        deleteRecursively(DATA.getParent());

        List<String> users;
        try (ConfigurableApplicationContext app = start()) {
            JdbcClient jdbc = app.getBean(JdbcClient.class);
            users = jdbc.sql("SELECT username FROM app_user ORDER BY username")
                    .query(String.class)
                    .list();
            assertThat(users).containsExactly("admin", "alice", "auditor", "bob");
            assertThat(jdbc.sql("SELECT slug FROM tenant ORDER BY slug")
                            .query(String.class)
                            .list())
                    .containsExactly("acme-ml", "globex-ai");
            assertThat(get(app, "/actuator/health/readiness")).contains("\"UP\"");
            // no sealing key configured: the quick start generated one beside its data and sealed the signing key
            assertThat(SEALING_KEY).isRegularFile();
            assertThat(jdbc.sql("SELECT jwk FROM signing_key")
                            .query(String.class)
                            .list())
                    .isNotEmpty()
                    .allSatisfy(jwk -> assertThat(jwk).startsWith("v1:"));
            jdbc.sql(
                            "INSERT INTO app_user (id, username, display_name, password_hash) VALUES (gen_random_uuid(), 'carol', 'Carol', 'x')")
                    .update();
        }

        try (ConfigurableApplicationContext app = start()) {
            JdbcClient jdbc = app.getBean(JdbcClient.class);
            assertThat(jdbc.sql("SELECT username FROM app_user ORDER BY username")
                            .query(String.class)
                            .list())
                    .containsExactly("admin", "alice", "auditor", "bob", "carol");
            assertThat(jdbc.sql("SELECT count(*) FROM tenant").query(Long.class).single())
                    .isEqualTo(2);
            // the generated key was kept: the stored signing key opens again and publishes itself
            assertThat(get(app, "/oauth2/jwks")).contains("\"kid\"").doesNotContain("\"d\"");
        }
    }

    @Test
    void aSecondCopyOnTheSameFolderSaysSoAndLeavesTheRunningOneAlone() throws Exception {
        Path data = Path.of("target", "embedded-second", "pgdata");
        deleteRecursively(data.getParent());
        try (ConfigurableApplicationContext running = start(data)) {
            // refused while the context is prepared, before any bean exists
            assertThat(NestedExceptionUtils.getMostSpecificCause(
                            catchThrowable(() -> start(data).close())))
                    .isInstanceOf(DataFolderLock.AlreadyRunningException.class)
                    .hasMessageContaining(
                            "Allot is already running from " + data.getParent().toAbsolutePath())
                    .hasMessageContaining("(process " + ProcessHandle.current().pid() + ")")
                    .hasMessageContaining("stopped before touching anything");
            // the running copy's PostgreSQL is untouched and still answers
            assertThat(running.getBean(JdbcClient.class)
                            .sql("SELECT count(*) FROM app_user")
                            .query(Long.class)
                            .single())
                    .isEqualTo(4);
            assertThat(get(running, "/actuator/health/readiness")).contains("\"UP\"");
        }
        // once it has stopped, the folder is free again
        try (ConfigurableApplicationContext again = start(data)) {
            assertThat(get(again, "/actuator/health/readiness")).contains("\"UP\"");
        }
    }

    private static ConfigurableApplicationContext start() {
        return start(DATA);
    }

    /** With its sealing key beside its data, as the quick start keeps it. */
    private static ConfigurableApplicationContext start(Path data) {
        return SpringApplication.run(
                AllotApplication.class,
                "--spring.datasource.url=",
                "--server.port=0",
                "--allot.security.public-url=",
                "--allot.embedded-postgres.data-directory=" + data.toAbsolutePath(),
                "--allot.security.sealing-key=",
                "--allot.security.sealing-key-file=" + data.toAbsolutePath().resolveSibling("sealing-key"),
                "--db-scheduler.enabled=false",
                "--server.shutdown=immediate");
    }

    private static String get(ConfigurableApplicationContext app, String path)
            throws IOException, InterruptedException {
        String port = app.getEnvironment().getProperty("local.server.port");
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        return response.body();
    }

    private static void deleteRecursively(Path folder) throws IOException {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
