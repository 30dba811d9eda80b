package dev.allot.identity.keys;

import dev.allot.identity.settings.SecurityProperties;
import dev.allot.shared.security.SealingKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The key that seals the token signing keys at rest. Configured with {@code allot.security.sealing-key}; the
 * embedded quick start (no {@code spring.datasource.url}) generates one beside its data instead, so
 * {@code ./mvnw spring-boot:run} still needs nothing; a start against an external database refuses to run
 * without one, because a generated key would live on one replica's disk only.
 */
@Configuration(proxyBeanMethods = false)
class SigningKeySealing {

    static final String PROPERTY = "allot.security.sealing-key";

    private static final Logger log = LoggerFactory.getLogger(SigningKeySealing.class);

    @Bean
    SealingKey signingKeySealingKey(
            SecurityProperties properties, @Value("${spring.datasource.url:}") String datasourceUrl) {
        return resolve(properties.sealingKey(), datasourceUrl.isBlank(), properties.sealingKeyFile());
    }

    static SealingKey resolve(@Nullable String configured, boolean embedded, Path file) {
        if (configured != null && !configured.isBlank()) {
            return SealingKey.fromBase64(PROPERTY, configured);
        }
        if (!embedded) {
            throw new MissingSealingKeyException();
        }
        try {
            if (Files.exists(file)) {
                return SealingKey.fromBase64(file.toAbsolutePath().toString(), Files.readString(file));
            }
            SealingKey generated = SealingKey.generate();
            Path absolute = file.toAbsolutePath();
            Files.createDirectories(absolute.getParent());
            Files.writeString(absolute, generated.toBase64() + "\n", StandardCharsets.US_ASCII);
            try {
                Files.setPosixFilePermissions(absolute, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException notPosix) {
                // Windows: the folder's own permissions apply
            }
            log.info("Generated the key that seals token signing keys in {} (embedded quick start only)", absolute);
            return generated;
        } catch (IOException ex) {
            throw new IllegalStateException("Cannot read or write the sealing key file " + file.toAbsolutePath(), ex);
        }
    }

    /** A production start (external database) without a sealing key. */
    static final class MissingSealingKeyException extends IllegalStateException {

        static final String ACTION = "Set " + PROPERTY + " (environment: ALLOT_SEALING_KEY) to 32 random bytes in "
                + "base64, for example the output of: openssl rand -base64 32. Give every replica the same key and "
                + "keep it out of the database and its backups.";

        MissingSealingKeyException() {
            super("No sealing key for the token signing keys: with an external database (spring.datasource.url) "
                    + "Allot does not start without one. " + ACTION);
        }
    }
}
