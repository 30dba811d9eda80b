package dev.allot.shared.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Sealing with the configured AES-256-GCM key: no database involved. */
class SealingKeyTests {

    private static final String KEY = "nGxtFyowhrCOTJAXJuIpizEt1mVEQk+DslKi2tCn21s=";

    private final SealingKey key = SealingKey.fromBase64("allot.test.key", KEY);

    @Test
    void aSealedValueHidesTheSecretAndOpensOnlyInItsContextWithItsKey() {
        String sealed = key.seal("signing_key:k1", "a private key");

        assertThat(sealed).startsWith("v1:").doesNotContain("private");
        assertThat(key.seal("signing_key:k1", "a private key"))
                .as("a fresh nonce each time")
                .isNotEqualTo(sealed);
        assertThat(key.open("signing_key:k1", sealed)).isEqualTo("a private key");
        assertThatThrownBy(() -> key.open("signing_key:k2", sealed))
                .isInstanceOf(SealingKey.CannotOpen.class)
                .hasMessageNotContaining("private");
        assertThatThrownBy(() -> SealingKey.generate().open("signing_key:k1", sealed))
                .isInstanceOf(SealingKey.CannotOpen.class);
    }

    @Test
    void anAlteredOrTruncatedValueDoesNotOpen() {
        String sealed = key.seal("ctx", "secret");
        String tampered = sealed.substring(0, sealed.length() - 4) + (sealed.endsWith("AAA=") ? "BBB=" : "AAA=");
        assertThatThrownBy(() -> key.open("ctx", tampered)).isInstanceOf(SealingKey.CannotOpen.class);
        assertThatThrownBy(() -> key.open("ctx", "v1:AAAA")).isInstanceOf(SealingKey.CannotOpen.class);
        assertThatThrownBy(() -> key.open("ctx", "v1:not base64!")).isInstanceOf(SealingKey.CannotOpen.class);
        assertThatThrownBy(() -> key.open("ctx", "secret")).isInstanceOf(SealingKey.CannotOpen.class);
    }

    @Test
    void aKeyThatIsNot256BitsOfBase64IsRefusedNamingTheProperty() {
        assertThatThrownBy(() -> SealingKey.fromBase64("allot.x.key", "c2hvcnQ="))
                .hasMessageContaining("allot.x.key")
                .hasMessageContaining("32 bytes");
        assertThatThrownBy(() -> SealingKey.fromBase64("allot.x.key", "not base64!"))
                .hasMessageContaining("allot.x.key");
    }

    @Test
    void aGeneratedKeyRoundTripsThroughItsBase64() {
        SealingKey generated = SealingKey.generate();
        String sealed = generated.seal("ctx", "secret");
        assertThat(SealingKey.fromBase64("p", generated.toBase64()).open("ctx", sealed))
                .isEqualTo("secret");
        assertThat(generated.toString()).doesNotContain(generated.toBase64());
    }
}
