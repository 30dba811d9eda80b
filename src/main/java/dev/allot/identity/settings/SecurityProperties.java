package dev.allot.identity.settings;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code allot.security}: how Allot issues and accepts tokens.
 *
 * @param publicUrl the URL users and CI reach Allot at; the issuer of its tokens (browse the UI at this URL)
 * @param issuerUri an external OIDC issuer (Keycloak, Entra, Okta) for browser sign-in, instead of Allot's own
 * @param usernameClaim the external issuer's claim that names the user; read once, at the first sign-in of its
 * subject, which it then stays linked to ({@link dev.allot.identity.signin.ExternalIdentities})
 * @param rolesClaim the external issuer's claim that lists platform roles
 * @param accessTokenTtl lifetime of access tokens issued to service accounts and the browser
 * @param bootstrapClientId a platform-admin client registered at start-up, for automation
 * @param bootstrapClientSecret its secret
 * @param sealingKey AES-256 key (32 bytes, base64) that seals the token signing keys in the database; required
 * with an external database, generated into {@code sealingKeyFile} by the embedded quick start
 * @param sealingKeyFile where the embedded quick start keeps the sealing key it generated
 * @param maxTokenLifetime the longest lifetime (exp - iat) of a token that is still accepted; a superseded
 * signing key keeps verifying this long after a rotation, then it is retired
 * @param metricsTokenSha256 SHA-256 (hex) of the bearer token Prometheus scrapes {@code /actuator/prometheus}
 * with; without it the metrics answer 401 to everyone
 * @param sessionLifetime how long a browser session lasts at most from its start, however active it is
 * (12 hours unless set)
 */
@ConfigurationProperties("allot.security")
public record SecurityProperties(
        @Nullable URI publicUrl,
        @Nullable URI issuerUri,
        String usernameClaim,
        String rolesClaim,
        Duration accessTokenTtl,
        @Nullable String bootstrapClientId,
        @Nullable String bootstrapClientSecret,
        @Nullable String sealingKey,
        Path sealingKeyFile,
        Duration maxTokenLifetime,
        @Nullable String metricsTokenSha256,
        Duration sessionLifetime) {

    public SecurityProperties {
        if (usernameClaim == null) {
            usernameClaim = "preferred_username";
        }
        if (rolesClaim == null) {
            rolesClaim = "roles";
        }
        if (accessTokenTtl == null) {
            accessTokenTtl = Duration.ofMinutes(15);
        }
        if (sealingKeyFile == null) {
            sealingKeyFile = Path.of(".allot", "sealing-key");
        }
        if (maxTokenLifetime == null) {
            maxTokenLifetime = Duration.ofHours(1);
        }
        if (sessionLifetime == null) {
            sessionLifetime = Duration.ofHours(12);
        }
        if (accessTokenTtl.compareTo(maxTokenLifetime) > 0) {
            throw new IllegalStateException("allot.security.access-token-ttl (" + accessTokenTtl
                    + ") must not exceed allot.security.max-token-lifetime (" + maxTokenLifetime + ")");
        }
    }

    public boolean hasBootstrapClient() {
        return bootstrapClientId != null
                && !bootstrapClientId.isBlank()
                && bootstrapClientSecret != null
                && !bootstrapClientSecret.isBlank();
    }
}
