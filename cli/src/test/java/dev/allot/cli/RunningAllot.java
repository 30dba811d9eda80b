package dev.allot.cli;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The packaged application ({@code -Dallot.jar}) started as a process on a free port, against a fresh database
 * {@code allot_cli_e2e} (or the one named by ALLOT_CLI_E2E_DATABASE, so that two runs on one server do not drop
 * each other's) on the PostgreSQL server named by SPRING_DATASOURCE_URL (else 127.0.0.1:5432), with a
 * platform-admin bootstrap client.
 */
final class RunningAllot implements AutoCloseable {

    static final String DATABASE = System.getenv().getOrDefault("ALLOT_CLI_E2E_DATABASE", "allot_cli_e2e");

    final String url;

    final String adminClientId = "e2e-admin";

    final String adminClientSecret;

    private final Process process;

    private final Path log;

    private RunningAllot(String url, String adminClientSecret, Process process, Path log) {
        this.url = url;
        this.adminClientSecret = adminClientSecret;
        this.process = process;
        this.log = log;
    }

    static RunningAllot start() throws Exception {
        Path jar = appJar();
        String jdbc =
                System.getenv().getOrDefault("SPRING_DATASOURCE_URL", "jdbc:postgresql://127.0.0.1:5432/allot_cli");
        String user = System.getenv().getOrDefault("SPRING_DATASOURCE_USERNAME", "postgres");
        String password = System.getenv().getOrDefault("SPRING_DATASOURCE_PASSWORD", "");
        String e2e = freshDatabase(jdbc, user, password);
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Path log = Path.of("target", "allot-e2e.log").toAbsolutePath();
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx768m",
                        "-jar",
                        jar.toString(),
                        "--server.port=" + port)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf((name) -> name.startsWith("SPRING_") || name.startsWith("ALLOT_"));
        env.put("SPRING_DATASOURCE_URL", e2e);
        env.put("SPRING_DATASOURCE_USERNAME", user);
        env.put("SPRING_DATASOURCE_PASSWORD", password);
        env.put("ALLOT_DEMO_ENABLED", "false");
        env.put("ALLOT_SEALING_KEY", Base64.getEncoder().encodeToString(key));
        String secret = UUID.randomUUID().toString();
        env.put("ALLOT_BOOTSTRAP_CLIENT_ID", "e2e-admin");
        env.put("ALLOT_BOOTSTRAP_CLIENT_SECRET", secret);
        RunningAllot allot = new RunningAllot("http://127.0.0.1:" + port, secret, builder.start(), log);
        allot.awaitReady(Duration.ofMinutes(3));
        return allot;
    }

    private static Path appJar() {
        String configured = System.getProperty("allot.jar", "");
        if (!configured.isBlank()) {
            return Path.of(configured);
        }
        // run from cli/ by hand: the jar the root build packaged
        File[] jars = new File("../target").listFiles((dir, name) -> name.matches("allot-.*\\.jar"));
        if (jars == null || jars.length == 0) {
            throw new IllegalStateException("no application jar: pass -Dallot.jar=... or run ./mvnw package first");
        }
        return jars[0].toPath().toAbsolutePath();
    }

    /** Drops and creates allot_cli_e2e beside the configured database; returns its JDBC URL. */
    private static String freshDatabase(String jdbc, String user, String password) throws SQLException {
        if (!DATABASE.matches("[a-z_][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("ALLOT_CLI_E2E_DATABASE is not a plain database name: " + DATABASE);
        }
        int slash = jdbc.lastIndexOf('/');
        String server = jdbc.substring(0, slash + 1);
        try (Connection admin = DriverManager.getConnection(server + "postgres", user, password);
                Statement sql = admin.createStatement()) {
            sql.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
            sql.execute("CREATE DATABASE " + DATABASE);
        }
        return server + DATABASE;
    }

    private void awaitReady(Duration limit) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(limit);
        try (HttpClient http = HttpClient.newHttpClient()) {
            while (Instant.now().isBefore(deadline)) {
                if (!this.process.isAlive()) {
                    throw new IllegalStateException("the application exited: see " + this.log + "\n" + tail());
                }
                try {
                    HttpResponse<String> health = http.send(
                            HttpRequest.newBuilder(URI.create(this.url + "/actuator/health/readiness"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (health.statusCode() == 200) {
                        return;
                    }
                } catch (IOException notYet) {
                    // not listening yet
                }
                Thread.sleep(500);
            }
        }
        close();
        throw new IllegalStateException("the application was not ready within " + limit + ": see " + this.log);
    }

    String tail() throws IOException {
        String all = Files.readString(this.log);
        return all.substring(Math.max(0, all.length() - 4000));
    }

    @Override
    public void close() throws InterruptedException {
        this.process.destroy();
        if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
            this.process.destroyForcibly();
        }
    }
}
