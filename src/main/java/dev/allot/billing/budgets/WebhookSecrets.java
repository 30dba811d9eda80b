package dev.allot.billing.budgets;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.UUID;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import dev.allot.shared.AllotException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Webhook signing secrets, stored sealed with AES-256-GCM under {@code allot.billing.webhook-secret-key} (a
 * base64 key from configuration, never from the database) and bound to their tenant, so a stolen database
 * (or a secret copied to another tenant's row) yields nothing. Stored as {@code v1:<base64 nonce|ciphertext>}.
 * Without a key no webhook secret can be set. Secrets stored in clear by earlier versions still work and are
 * sealed at start-up once a key is configured. No secret, sealed or not, is ever logged.
 */
@Component
public class WebhookSecrets {

	private static final String PREFIX = "v1:";

	private static final int NONCE = 12;

	private static final Logger log = LoggerFactory.getLogger(WebhookSecrets.class);

	private final @Nullable SecretKey key;

	private final JdbcClient jdbc;

	private final SecureRandom random = new SecureRandom();

	public WebhookSecrets(@Value("${allot.billing.webhook-secret-key:}") String key, JdbcClient jdbc) {
		this.key = key.isBlank() ? null : key(key);
		this.jdbc = jdbc;
	}

	private static SecretKey key(String base64) {
		byte[] bytes;
		try {
			bytes = Base64.getDecoder().decode(base64.trim());
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("allot.billing.webhook-secret-key must be base64");
		}
		if (bytes.length != 32) {
			throw new IllegalStateException("allot.billing.webhook-secret-key must be 32 bytes (256 bits), base64: "
					+ "openssl rand -base64 32");
		}
		return new SecretKeySpec(bytes, "AES");
	}

	public String seal(UUID tenantId, String secret) {
		if (key == null) {
			throw AllotException.unprocessable("webhook_secret_key_missing",
					"Webhooks need allot.billing.webhook-secret-key configured: Allot never stores a webhook secret "
							+ "in clear. Ask the platform operator, or set the budget without a webhook.");
		}
		try {
			byte[] nonce = new byte[NONCE];
			random.nextBytes(nonce);
			Cipher cipher = cipher(Cipher.ENCRYPT_MODE, nonce, tenantId);
			byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
			return PREFIX + Base64.getEncoder()
				.encodeToString(ByteBuffer.allocate(NONCE + sealed.length).put(nonce).put(sealed).array());
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("Could not seal a webhook secret", ex);
		}
	}

	/** The secret in clear, for signing; a legacy clear value passes through. */
	public String open(UUID tenantId, String stored) {
		if (!stored.startsWith(PREFIX)) {
			return stored;
		}
		if (key == null) {
			throw new IllegalStateException("A sealed webhook secret needs allot.billing.webhook-secret-key");
		}
		try {
			byte[] bytes = Base64.getDecoder().decode(stored.substring(PREFIX.length()));
			byte[] nonce = java.util.Arrays.copyOf(bytes, NONCE);
			Cipher cipher = cipher(Cipher.DECRYPT_MODE, nonce, tenantId);
			return new String(cipher.doFinal(bytes, NONCE, bytes.length - NONCE), StandardCharsets.UTF_8);
		}
		catch (GeneralSecurityException | IllegalArgumentException ex) {
			throw new IllegalStateException("The webhook secret of tenant " + tenantId
					+ " cannot be opened with the configured key");
		}
	}

	/** Seals secrets stored in clear by earlier versions (safe on every replica: each row changes once). */
	@EventListener(ApplicationReadyEvent.class)
	public void sealLegacy() {
		if (key == null) {
			return;
		}
		record Clear(UUID tenantId, String secret) {
		}
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

	private Cipher cipher(int mode, byte[] nonce, UUID tenantId) throws GeneralSecurityException {
		Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
		cipher.init(mode, key, new GCMParameterSpec(128, nonce));
		cipher.updateAAD(tenantId.toString().getBytes(StandardCharsets.UTF_8));
		return cipher;
	}

}
