package dev.allot.identity.tokens;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.stereotype.Component;

/**
 * Access tokens revoked before they expire ({@code revoked_access_token}, by hash), refused at the API: a JWT
 * verifies by its signature alone, so a revoked one kept working until it expired while introspection called
 * it inactive. Each replica keeps the list in memory and reads it again at most every {@link #REFRESH} (one
 * small query, not one per request); the replica that revoked knows at once. Rows go once their token expired.
 */
@Component
public class RevokedTokens implements OAuth2TokenValidator<Jwt> {

    public static final Duration REFRESH = Duration.ofSeconds(2);

    private final JdbcClient jdbc;

    private final Clock clock;

    private volatile Set<String> revoked = Set.of();

    private volatile Instant readAt = Instant.MIN;

    RevokedTokens(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** Refuses the token from now on, on every replica, until it expires. */
    void revoke(String tokenHash, Instant expiresAt) {
        this.jdbc.sql("""
				INSERT INTO revoked_access_token (token_hash, expires_at) VALUES (?, ?)
				ON CONFLICT (token_hash) DO NOTHING""").params(tokenHash, Timestamp.from(expiresAt)).update();
        Set<String> known = new HashSet<>(this.revoked);
        known.add(tokenHash);
        this.revoked = Set.copyOf(known);
    }

    @Override
    public OAuth2TokenValidatorResult validate(Jwt token) {
        if (current().contains(HashedTokenAuthorizations.hash(token.getTokenValue()))) {
            return OAuth2TokenValidatorResult.failure(new OAuth2Error("invalid_token", "The token is revoked", null));
        }
        return OAuth2TokenValidatorResult.success();
    }

    private Set<String> current() {
        Instant now = this.clock.instant();
        if (this.readAt.isBefore(now.minus(REFRESH))) {
            this.jdbc
                    .sql("DELETE FROM revoked_access_token WHERE expires_at < now() - interval '5 minutes'")
                    .update();
            this.revoked = Set.copyOf(this.jdbc
                    .sql("SELECT token_hash FROM revoked_access_token")
                    .query(String.class)
                    .list());
            this.readAt = now;
        }
        return this.revoked;
    }
}
