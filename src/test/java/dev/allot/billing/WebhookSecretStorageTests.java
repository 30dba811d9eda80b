package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.billing.budgets.Notifications;
import dev.allot.billing.budgets.WebhookSecrets;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The budget webhook's shared secret never reaches the database in clear. */
class WebhookSecretStorageTests extends BillingTest {

    private static final String SECRET = "a-shared-secret-of-the-tenant";

    @Autowired
    WebhookSecrets secrets;

    @Autowired
    Notifications notifications;

    private String stored(UUID tenantId) {
        return jdbc.sql("SELECT webhook_secret FROM tenant_budget WHERE tenant_id = ?")
                .param(tenantId)
                .query(String.class)
                .single();
    }

    private UUID tenantId(String slug) {
        return jdbc.sql("SELECT id FROM tenant WHERE slug = ?")
                .param(slug)
                .query(UUID.class)
                .single();
    }

    @Test
    void theSecretIsStoredSealedAndOpensForSigning() {
        newMonth();
        Setup s = setup(1, 8, 8, false);
        assertThat(api.put(
                                path(s, "/budget"),
                                s.token(),
                                Map.of(
                                        "amount",
                                        100,
                                        "currency",
                                        "USD",
                                        "webhookUrl",
                                        "https://" + WEBHOOK_HOST + "/allot",
                                        "webhookSecret",
                                        SECRET))
                        .status())
                .isEqualTo(200);
        UUID tenant = tenantId(s.tenant());

        assertThat(stored(tenant)).startsWith("v1:").doesNotContain(SECRET);
        assertThat(notifications.secretOf(tenant)).contains(SECRET);
        assertThat(jdbc.sql("SELECT count(*) FROM audit_event WHERE after::text LIKE ? OR before::text LIKE ?")
                        .params("%" + SECRET + "%", "%" + SECRET + "%")
                        .query(Long.class)
                        .single())
                .isZero();
    }

    @Test
    void aSecretStoredInClearBeforeIsSealedAtStartUp() {
        newMonth();
        Setup s = setup(1, 8, 8, false);
        UUID tenant = tenantId(s.tenant());
        jdbc.sql("""
				INSERT INTO tenant_budget (tenant_id, amount, currency, thresholds, webhook_url, webhook_secret, updated_at)
				VALUES (?, 100, 'USD', '{50,80,100}', 'https://hooks.example.com/allot', ?, now())""").params(tenant, SECRET).update();
        assertThat(notifications.secretOf(tenant)).contains(SECRET);

        secrets.sealLegacy();

        assertThat(stored(tenant)).startsWith("v1:").doesNotContain(SECRET);
        assertThat(notifications.secretOf(tenant)).contains(SECRET);
    }
}
