package dev.allot.identity.signin;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code allot.security.external}: Allot's client at an external issuer, used when
 * {@code allot.security.issuer-uri} is set.
 */
@ConfigurationProperties("allot.security.external")
record ExternalClientProperties(String clientId, String clientSecret) {

    ExternalClientProperties {
        clientId = clientId == null ? "allot" : clientId;
        clientSecret = clientSecret == null ? "" : clientSecret;
    }
}
