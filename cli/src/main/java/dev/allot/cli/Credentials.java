package dev.allot.cli;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Properties;

/**
 * What {@code allot login} stores: the server's URL, the client id and secret, the tenant, and the last access
 * token with its expiry. The file is created with mode 0600 (it holds a secret), written to a temporary file
 * first so that a crash never leaves half of it.
 */
record Credentials(
        String url,
        String clientId,
        String clientSecret,
        String tenant,
        String accessToken,
        Instant accessTokenExpiresAt) {

    /** $ALLOT_CONFIG, else ~/.config/allot/credentials. */
    static Path defaultPath() {
        String configured = System.getenv("ALLOT_CONFIG");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        return Path.of(System.getProperty("user.home"), ".config", "allot", "credentials");
    }

    static Credentials read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new CliFailure(ExitCodes.AUTH, "not signed in: run allot login (no credentials in " + file + ")");
        }
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            p.load(in);
        } catch (IOException ex) {
            throw new CliFailure(ExitCodes.FAILED, "cannot read " + file + ": " + ex.getMessage());
        }
        String expires = p.getProperty("accessTokenExpiresAt");
        return new Credentials(
                p.getProperty("url"),
                p.getProperty("clientId"),
                p.getProperty("clientSecret"),
                p.getProperty("tenant"),
                p.getProperty("accessToken"),
                expires != null ? Instant.parse(expires) : null);
    }

    void write(Path file) {
        Properties p = new Properties();
        p.setProperty("url", this.url);
        p.setProperty("clientId", this.clientId);
        p.setProperty("clientSecret", this.clientSecret);
        if (this.tenant != null) {
            p.setProperty("tenant", this.tenant);
        }
        if (this.accessToken != null && this.accessTokenExpiresAt != null) {
            p.setProperty("accessToken", this.accessToken);
            p.setProperty("accessTokenExpiresAt", this.accessTokenExpiresAt.toString());
        }
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(
                    dir,
                    ".credentials",
                    ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try (Writer out = Files.newBufferedWriter(tmp)) {
                p.store(out, "allot login; keep this file private (mode 0600)");
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException ex) {
            throw new CliFailure(ExitCodes.FAILED, "cannot write " + file + ": " + ex.getMessage());
        }
    }

    Credentials withToken(String token, Instant expiresAt) {
        return new Credentials(this.url, this.clientId, this.clientSecret, this.tenant, token, expiresAt);
    }

    /** A cached token is reused while it has at least a minute left. */
    boolean hasTokenValidAt(Instant now) {
        return this.accessToken != null
                && this.accessTokenExpiresAt != null
                && this.accessTokenExpiresAt.isAfter(now.plusSeconds(60));
    }
}
