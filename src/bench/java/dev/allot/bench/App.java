package dev.allot.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The packaged application as a separate process, as it runs in production: {@code java -jar} against the
 * benchmark's database, with a bootstrap platform-admin client for the set-up calls. Ready when its readiness
 * probe answers UP.
 */
final class App implements AutoCloseable {

    static final String BOOTSTRAP_ID = "bench-admin";

    private static final String SEALING_KEY = sealingKey();

    static final String BOOTSTRAP_SECRET = "bench-admin-secret-0123456789";

    private final Process process;

    private final String baseUrl;

    private final double startSeconds;

    private App(Process process, String baseUrl, double startSeconds) {
        this.process = process;
        this.baseUrl = baseUrl;
        this.startSeconds = startSeconds;
    }

    static App start(Settings settings, String label) throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Files.createDirectories(settings.out());
        Path log = settings.out().resolve("app-" + label + ".log");
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        if (settings.jfr()) {
            command.add("-XX:StartFlightRecording=filename=" + settings.out().resolve("app-" + label + ".jfr")
                    + ",settings=profile,dumponexit=true");
        }
        command.addAll(List.of(
                "-jar",
                settings.jar().toString(),
                "--server.port=" + port,
                "--spring.datasource.url=" + settings.jdbcUrl(),
                "--spring.datasource.username=" + settings.databaseUser(),
                "--allot.security.bootstrap-client-id=" + BOOTSTRAP_ID,
                "--allot.security.bootstrap-client-secret=" + BOOTSTRAP_SECRET,
                "--allot.security.public-url=http://127.0.0.1:" + port,
                "--logging.level.root=WARN",
                // every client calls from 127.0.0.1 and books flat out: the limits stay on (their cost is measured),
                // their budgets out of reach
                "--allot.security.rate-limits.token-per-address.capacity=1000000",
                "--allot.security.rate-limits.api-per-caller.capacity=1000000000"));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
        builder.environment().remove("SPRING_DATASOURCE_URL");
        // an external database needs the key that seals the signing keys; one per benchmark run, so restarts agree
        builder.environment().put("ALLOT_SEALING_KEY", SEALING_KEY);
        long started = System.nanoTime();
        Process process = builder.start();
        String base = "http://127.0.0.1:" + port;
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest ready = HttpRequest.newBuilder(URI.create(base + "/actuator/health/readiness"))
                .timeout(Duration.ofSeconds(5))
                .build();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("The application exited while starting; see " + log);
            }
            if ((System.nanoTime() - started) > Duration.ofMinutes(5).toNanos()) {
                process.destroyForcibly();
                throw new IllegalStateException("The application was not ready within 5 minutes; see " + log);
            }
            try {
                HttpResponse<String> answer = http.send(ready, HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200 && answer.body().contains("UP")) {
                    break;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(50);
        }
        return new App(process, base, (System.nanoTime() - started) / 1e9);
    }

    String baseUrl() {
        return baseUrl;
    }

    double startSeconds() {
        return startSeconds;
    }

    long pid() {
        return process.pid();
    }

    /** Resident memory of the process now, in MiB, from {@code /proc}. */
    double rssMib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(process.pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
                }
            }
        } catch (IOException | NumberFormatException ex) {
            return -1;
        }
        return -1;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor();
        }
    }

    private static String sealingKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }
}
