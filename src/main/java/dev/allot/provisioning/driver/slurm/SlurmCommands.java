package dev.allot.provisioning.driver.slurm;

import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.DriverTimeoutException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs Slurm's command-line tools, each bounded by a timeout. Environment goes through {@code env} on the
 * command line so that it also reaches a remote host behind a prefix such as {@code ssh ctl}. Arguments never
 * contain spaces or secrets, so they survive the remote shell and may be logged.
 */
final class SlurmCommands {

    private static final Logger log = LoggerFactory.getLogger(SlurmCommands.class);

    private final List<String> prefix;

    private final @Nullable String slurmConf;

    private final Duration timeout;

    SlurmCommands(List<String> prefix, @Nullable String slurmConf, Duration timeout) {
        this.prefix = List.copyOf(prefix);
        this.slurmConf = slurmConf;
        this.timeout = timeout;
    }

    record Result(int exitCode, String stdout, String stderr, Duration took) {

        boolean ok() {
            return exitCode == 0;
        }

        /** What Slurm said, for error messages: its error output if any, else its standard output. */
        String message() {
            return (stderr.isBlank() ? stdout : stderr).strip();
        }
    }

    Result run(String... command) {
        return run(timeout, command).orElseThrow(() -> new DriverTimeoutException(String.join(" ", command), timeout));
    }

    /**
     * Runs a command with {@code input} as its standard input: how text with spaces (a key line) reaches a remote
     * host, where an argument would pass through its shell.
     */
    Result runWithInput(String input, String... command) {
        return run(timeout, input.getBytes(StandardCharsets.UTF_8), command)
                .orElseThrow(() -> new DriverTimeoutException(String.join(" ", command), timeout));
    }

    /** Runs a command bounded by its own timeout; empty when it ran past it (it was killed). */
    Optional<Result> run(Duration timeout, String... command) {
        return run(timeout, new byte[0], command);
    }

    private Optional<Result> run(Duration timeout, byte[] input, String... command) {
        List<String> line = new ArrayList<>(prefix);
        line.add("env");
        // Times as epoch seconds: reading them back does not depend on the controller's time zone.
        line.add("SLURM_TIME_FORMAT=%s");
        if (slurmConf != null) {
            line.add("SLURM_CONF=" + slurmConf);
        }
        line.addAll(List.of(command));
        long started = System.nanoTime();
        Process process;
        try {
            process = new ProcessBuilder(line).start();
        } catch (IOException ex) {
            throw new DriverFailedException("Cannot run " + command[0] + ": " + ex.getMessage(), false, ex);
        }
        CompletableFuture<String> out = read(process.getInputStream());
        CompletableFuture<String> err = read(process.getErrorStream());
        // beyond the input, nothing to say to it: ssh or a prompt must not wait for more
        try (var stdin = process.getOutputStream()) {
            stdin.write(input);
        } catch (IOException ex) {
            // it exited without reading all of it: its exit code and error output tell why
            log.debug("{} did not read its input: {}", command[0], ex.getMessage());
        }
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                return Optional.empty();
            }
            Result result = new Result(
                    process.exitValue(), out.get(), err.get(), Duration.ofNanos(System.nanoTime() - started));
            log.debug(
                    "{} -> {} in {} ms",
                    command,
                    result.exitCode(),
                    result.took().toMillis());
            return Optional.of(result);
        } catch (InterruptedException ex) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new DriverFailedException(command[0] + " was interrupted", true, ex);
        } catch (ExecutionException ex) {
            throw new DriverFailedException("Cannot read the output of " + command[0], true, ex);
        }
    }

    private static CompletableFuture<String> read(InputStream stream) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try (stream) {
                        return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
                    } catch (IOException ex) {
                        throw new UncheckedIOException(ex);
                    }
                },
                runnable -> Thread.ofVirtual().start(runnable));
    }

    @Override
    public String toString() {
        return (prefix.isEmpty() ? "local" : String.join(" ", prefix)) + (slurmConf == null ? "" : " " + slurmConf);
    }
}
