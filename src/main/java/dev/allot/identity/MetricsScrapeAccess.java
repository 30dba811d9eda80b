package dev.allot.identity;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.authorization.AuthorizationManager;
import org.springframework.security.authorization.AuthorizationResult;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;

/**
 * Lets a scraper read {@code /actuator/prometheus} with a static bearer token, of which Allot keeps only the
 * SHA-256 ({@code allot.security.metrics-token-sha256}): what the metrics reveal (tenants' pools, problem rates,
 * queue depths) is not for anyone who can reach the port. Prometheus sends it from a file
 * ({@code authorization: {credentials_file: …}}), so no token expiry to manage. Without a configured hash
 * nobody gets in.
 */
final class MetricsScrapeAccess implements AuthorizationManager<RequestAuthorizationContext> {

    private static final String BEARER = "bearer ";

    private final byte @Nullable [] expected;

    MetricsScrapeAccess(@Nullable String tokenSha256) {
        this.expected = tokenSha256 == null || tokenSha256.isBlank()
                ? null
                : HexFormat.of().parseHex(tokenSha256.trim().toLowerCase(Locale.ROOT));
        if (this.expected != null && this.expected.length != 32) {
            throw new IllegalStateException(
                    "allot.security.metrics-token-sha256 must be 64 hex digits (sha256sum of the scrape token)");
        }
    }

    @Override
    public AuthorizationResult authorize(
            Supplier<? extends @Nullable Authentication> authentication, RequestAuthorizationContext context) {
        return new AuthorizationDecision(allowed(context.getRequest()));
    }

    boolean allowed(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (this.expected == null
                || header == null
                || header.length() <= BEARER.length()
                || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return false;
        }
        byte[] presented = sha256(header.substring(BEARER.length()).trim());
        return MessageDigest.isEqual(presented, this.expected);
    }

    static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
