package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.billing.budgets.WebhookSecrets;
import dev.allot.shared.AllotException;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Sealing webhook secrets with the configured key (no database involved: sealing never touches it). */
class WebhookSecretsTests {

    private static final String KEY = BillingTest.SECRET_KEY;

    private final WebhookSecrets secrets = new WebhookSecrets(KEY, null);

    @Test
    void aSealedSecretHidesTheSecretAndOpensOnlyForItsTenantWithTheKey() {
        UUID tenant = UUID.randomUUID();
        String sealed = secrets.seal(tenant, "a-shared-secret-of-the-tenant");

        assertThat(sealed).startsWith("v1:").doesNotContain("shared-secret");
        assertThat(secrets.seal(tenant, "a-shared-secret-of-the-tenant")).isNotEqualTo(sealed);
        assertThat(secrets.open(tenant, sealed)).isEqualTo("a-shared-secret-of-the-tenant");
        assertThatThrownBy(() -> secrets.open(UUID.randomUUID(), sealed))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageNotContaining("shared-secret");
        WebhookSecrets otherKey = new WebhookSecrets("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", null);
        assertThatThrownBy(() -> otherKey.open(tenant, sealed)).isInstanceOf(IllegalStateException.class);
        String tampered = sealed.substring(0, sealed.length() - 4) + (sealed.endsWith("AAA=") ? "BBB=" : "AAA=");
        assertThatThrownBy(() -> secrets.open(tenant, tampered)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void withoutAKeyNoSecretIsSetAndABadKeyStopsStartUp() {
        WebhookSecrets none = new WebhookSecrets("", null);
        assertThatThrownBy(() -> none.seal(UUID.randomUUID(), "a-shared-secret-of-the-tenant"))
                .isInstanceOfSatisfying(AllotException.class, ex -> {
                    assertThat(ex.status()).isEqualTo(422);
                    assertThat(ex.code()).isEqualTo("webhook_secret_key_missing");
                });
        assertThat(none.open(UUID.randomUUID(), "stored-in-clear-before")).isEqualTo("stored-in-clear-before");
        assertThatThrownBy(() -> new WebhookSecrets("c2hvcnQ=", null)).hasMessageContaining("32 bytes");
    }
}
