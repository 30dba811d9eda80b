package dev.allot.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.allot.client.ApiClient;
import dev.allot.client.model.ReservationRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.stream.Stream;

/**
 * The window the CLI chose for a booking with an idempotency key, kept beside the credentials
 * ({@code requests/<sha-256 of the key>.json}). The earliest window moves once the first attempt has booked it, so
 * a pipeline step that is run again with the same key and no {@code --start} sends the window the first run chose:
 * the same body, so the server replays the first answer instead of refusing a reused key.
 */
final class PinnedWindows {

    /** Longer than the server keeps an idempotency key; older records are removed as they are found. */
    private static final Duration KEPT = Duration.ofDays(8);

    private static final ObjectMapper JSON = ApiClient.createDefaultObjectMapper();

    private final Path dir;

    PinnedWindows(Path configFile) {
        this.dir = configFile.toAbsolutePath().resolveSibling("requests");
    }

    /**
     * The request this key was first sent with, when it asked for exactly {@code unpinned} (its window aside) for
     * {@code length}; else {@code null}.
     */
    ReservationRequest find(String key, ReservationRequest unpinned, Duration length) {
        Path file = file(key);
        try {
            if (!Files.isRegularFile(file)) {
                return null;
            }
            ReservationRequest first = JSON.readValue(Files.readString(file), ReservationRequest.class);
            ReservationRequest same = JSON.readValue(JSON.writeValueAsString(unpinned), ReservationRequest.class)
                    .startsAt(first.getStartsAt())
                    .endsAt(first.getEndsAt());
            boolean sameLength =
                    Duration.between(first.getStartsAt(), first.getEndsAt()).equals(length);
            return same.equals(first) && sameLength ? first : null;
        } catch (IOException | RuntimeException unreadable) {
            return null;
        }
    }

    /** Keeps the request sent with this key (before it is sent, so a crash in between cannot lose it). */
    void keep(String key, ReservationRequest request) {
        try {
            Files.createDirectories(this.dir);
            forgetOld();
            Path tmp = Files.createTempFile(this.dir, ".request", ".tmp");
            Files.writeString(tmp, JSON.writeValueAsString(request));
            Files.move(tmp, file(key), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException ex) {
            throw new CliFailure(
                    ExitCodes.FAILED, "cannot keep the booking's window in " + this.dir + ": " + ex.getMessage());
        }
    }

    private void forgetOld() throws IOException {
        Instant before = Instant.now().minus(KEPT);
        try (Stream<Path> files = Files.list(this.dir)) {
            for (Path file : files.toList()) {
                if (Files.getLastModifiedTime(file).toInstant().isBefore(before)) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    private Path file(String key) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return this.dir.resolve(HexFormat.of().formatHex(hash) + ".json");
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
