package dev.allot.identity.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.shared.security.SealingKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the key sealing the signing keys comes from, in the quick start and in production. */
class SigningKeySealingTests {

    private static final String KEY = "3q0n3V8mJ3mZ8k1pS2t5vXyA7dF0gH4jK6lN9oQ1rT4=";

    @TempDir
    Path folder;

    @Test
    void aProductionStartWithoutAKeyIsRefusedSayingWhatToSet() {
        assertThatThrownBy(() -> SigningKeySealing.resolve(null, false, folder.resolve("sealing-key")))
                .isInstanceOf(SigningKeySealing.MissingSealingKeyException.class)
                .hasMessageContaining("allot.security.sealing-key")
                .hasMessageContaining("ALLOT_SEALING_KEY")
                .hasMessageContaining("openssl rand -base64 32");
        assertThat(folder.resolve("sealing-key")).doesNotExist();
    }

    @Test
    void theQuickStartGeneratesAKeyOnceAndKeepsIt() throws Exception {
        Path file = folder.resolve(".allot").resolve("sealing-key");
        SealingKey first = SigningKeySealing.resolve("", true, file);

        assertThat(file).isRegularFile();
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        String sealed = first.seal("ctx", "secret");
        assertThat(SigningKeySealing.resolve(null, true, file).open("ctx", sealed))
                .isEqualTo("secret");
    }

    @Test
    void aConfiguredKeyWinsAndNoFileIsWritten() {
        Path file = folder.resolve("sealing-key");
        SealingKey configured = SigningKeySealing.resolve(KEY, true, file);

        assertThat(file).doesNotExist();
        assertThat(SealingKey.fromBase64("k", KEY).open("ctx", configured.seal("ctx", "s")))
                .isEqualTo("s");
        assertThatThrownBy(() -> SigningKeySealing.resolve("c2hvcnQ=", false, file))
                .hasMessageContaining("allot.security.sealing-key");
    }
}
