package dev.allot.billing.budgets;

import dev.allot.shared.AllotException;
import dev.allot.shared.security.SealingKey;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Webhook signing secrets, stored sealed ({@link SealingKey}: AES-256-GCM) under
 * {@code allot.billing.webhook-secret-key} (a base64 key from configuration, never from the database) and bound
 * to their tenant, so a stolen database
 * (or a secret copied to another tenant's row) yields nothing. Stored as {@code v1:<base64 nonce|ciphertext>}.
 * Without a key no webhook secret can be set. Secrets stored in clear by earlier versions still work and are
 * sealed at start-up once a key is configured. No secret, sealed or not, is ever logged.
 */
@Component
public class WebhookSecrets {

    private static final Logger log = LoggerFactory.getLogger(WebhookSecrets.class);

    private final @Nullable SealingKey key;

    private final JdbcClient jdbc;

    public WebhookSecrets(@Value("${allot.billing.webhook-secret-key:}") String key, JdbcClient jdbc) {
        this.key = key.isBlank() ? null : SealingKey.fromBase64("allot.billing.webhook-secret-key", key);
        this.jdbc = jdbc;
    }

    public String seal(UUID tenantId, String secret) {
        if (key == null) {
            throw AllotException.unprocessable(
                    "webhook_secret_key_missing",
                    "Webhooks need allot.billing.webhook-secret-key configured: Allot never stores a webhook secret "
                            + "in clear. Ask the platform operator, or set the budget without a webhook.");
        }
        return key.seal(tenantId.toString(), secret);
    }

    /** The secret in clear, for signing; a legacy clear value passes through. */
    public String open(UUID tenantId, String stored) {
        if (!SealingKey.isSealed(stored)) {
            return stored;
        }
        if (key == null) {
            throw new IllegalStateException("A sealed webhook secret needs allot.billing.webhook-secret-key");
        }
        try {
            return key.open(tenantId.toString(), stored);
        } catch (SealingKey.CannotOpen ex) {
            throw new IllegalStateException(
                    "The webhook secret of tenant " + tenantId + " cannot be opened with the configured key");
        }
    }

    /** Seals secrets stored in clear by earlier versions (safe on every replica: each row changes once). */
    @EventListener(ApplicationReadyEvent.class)
    public void sealLegacy() {
        if (key == null) {
            return;
        }
        record Clear(UUID tenantId, String secret) {}
        var clear = jdbc.sql("SELECT tenant_id, webhook_secret FROM tenant_budget WHERE webhook_secret NOT LIKE 'v1:%'")
                .query((rs, n) -> new Clear(rs.getObject(1, UUID.class), rs.getString(2)))
                .list();
        for (Clear c : clear) {
            jdbc.sql("UPDATE tenant_budget SET webhook_secret = ? WHERE tenant_id = ? AND webhook_secret = ?")
                    .params(seal(c.tenantId(), c.secret()), c.tenantId(), c.secret())
                    .update();
        }
        if (!clear.isEmpty()) {
            log.info("Sealed {} webhook secret(s) stored in clear", clear.size());
        }
    }
}
