package dev.allot.replicas;

import dev.allot.AllotApplication;
import dev.allot.support.Api;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One Allot replica as its own operating-system process: the application's main class on the test classpath
 * (the application's classes and every dependency, never the test classes), against a database the caller names,
 * on a free port. Ready when its readiness probe answers UP. {@link #kill()} is {@code kill -9}: no shutdown hook,
 * no graceful stop, exactly as when a host dies.
 */
final class Replica implements AutoCloseable {

    static final String ADMIN_CLIENT = "replicas-admin";

    static final String ADMIN_SECRET = "replicas-admin-secret-0123456789";

    static final String SEALING_KEY = "3q0n3V8mJ3mZ8k1pS2t5vXyA7dF0gH4jK6lN9oQ1rT4=";

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    final String name;

    final int port;

    final Path log;

    private final Process process;

    private Replica(String name, int port, Path log, Process process) {
        this.name = name;
        this.port = port;
        this.log = log;
        this.process = process;
    }

    /**
     * Starts (does not wait): {@code settings} are Spring properties ({@code --name=value}) added after the common
     * ones, so a test may override any of them. Replicas behind one load balancer share its public URL, which
     * is the issuer of their tokens: {@code publicUrl}.
     */
    static Replica start(
            String name,
            int port,
            String publicUrl,
            String jdbcUrl,
            String username,
            String password,
            Path logs,
            List<String> settings)
            throws IOException {
        Files.createDirectories(logs);
        Path log = logs.resolve(name + ".log");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Djava.io.tmpdir=" + logs,
                "-cp",
                applicationClasspath(),
                AllotApplication.class.getName(),
                "--server.port=" + port,
                "--spring.datasource.url=" + jdbcUrl,
                "--spring.datasource.username=" + username,
                "--spring.datasource.password=" + password,
                "--spring.datasource.hikari.maximum-pool-size=8",
                "--allot.demo.enabled=false",
                "--allot.security.public-url=" + publicUrl,
                "--allot.security.bootstrap-client-id=" + ADMIN_CLIENT,
                "--allot.security.bootstrap-client-secret=" + ADMIN_SECRET,
                "--allot.security.sealing-key=" + SEALING_KEY,
                "--allot.security.rate-limits.token-per-client.capacity=1000000",
                "--allot.security.rate-limits.token-per-address.capacity=1000000",
                "--allot.security.rate-limits.login-per-username.capacity=1000000",
                "--allot.security.rate-limits.login-per-address.capacity=1000000",
                "--allot.security.rate-limits.api-per-caller.capacity=1000000",
                "--allot.security.rate-limits.backoff.threshold=1000",
                // each replica process has a fake driver of its own, which knows only the clusters it built: a replica
                // woken by a change the other made would find that cluster gone and build it again (with real drivers
                // both replicas see the same clusters)
                "--allot.provisioning.lifecycle.wake-on-changes=false",
                // and for the same reason no timed reconciler pass within a test: one on the replica that did not build
                // a cluster rebuilt it, a second provision of the cluster (a CI run whose clusters served across the
                // default two-minute pass)
                "--allot.provisioning.lifecycle.reconcile-interval=PT6H",
                // each replica's executions carry its name in scheduled_tasks.picked_by
                "--db-scheduler.scheduler-name=" + name));
        command.addAll(settings);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
        builder.environment().keySet().removeIf(key -> key.startsWith("SPRING_") || key.startsWith("ALLOT_"));
        return new Replica(name, port, log, builder.start());
    }

    /** Waits until the readiness probe answers UP, failing if the process exits or takes longer than {@code max}. */
    Replica awaitReady(Duration max) throws Exception {
        long deadline = System.nanoTime() + max.toNanos();
        HttpRequest ready = HttpRequest.newBuilder(URI.create(baseUrl() + "/actuator/health/readiness"))
                .timeout(Duration.ofSeconds(5))
                .build();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited while starting; its log:\n" + tail());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " was not ready within " + max + "; its log:\n" + tail());
            }
            try {
                HttpResponse<String> answer = HTTP.send(ready, HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200 && answer.body().contains("UP")) {
                    return this;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    Api api() {
        return new Api(port);
    }

    boolean alive() {
        return process.isAlive();
    }

    /** {@code kill -9}: the JVM gets no chance to finish anything. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException ex) {
            return "(no log: " + ex.getMessage() + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }

    /**
     * The application's classpath: this test JVM's (Surefire puts the test classpath in {@code java.class.path})
     * without the test classes, so no test component is scanned into the replica.
     */
    static String applicationClasspath() {
        List<String> entries = Arrays.stream(
                        System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.endsWith("test-classes") && !entry.endsWith("test-classes/"))
                .toList();
        if (entries.stream().noneMatch(entry -> entry.endsWith("classes") || entry.endsWith("classes/"))) {
            throw new IllegalStateException("The application's classes are not on the classpath: " + entries);
        }
        return entries.stream().collect(Collectors.joining(File.pathSeparator));
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
