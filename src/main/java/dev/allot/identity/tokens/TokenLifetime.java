package dev.allot.identity.tokens;

import dev.allot.identity.keys.SigningKeys;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;

/**
 * Refuses a token that says nothing about when it was issued or expires, one issued in the future, and one
 * whose lifetime (exp - iat) exceeds {@code allot.security.max-token-lifetime}: Allot never issues such a
 * token, so one is forged with a stolen key, and a short cap also bounds how long a retired key matters.
 */
public record TokenLifetime(Duration max, Clock clock) implements OAuth2TokenValidator<Jwt> {

    @Override
    public OAuth2TokenValidatorResult validate(Jwt token) {
        Instant issued = token.getIssuedAt();
        Instant expires = token.getExpiresAt();
        if (issued == null || expires == null) {
            return refuse("The token must carry iat and exp");
        }
        if (issued.isAfter(clock.instant().plus(SigningKeys.SKEW))) {
            return refuse("The token is issued in the future");
        }
        if (Duration.between(issued, expires).compareTo(max) > 0) {
            return refuse("The token's lifetime exceeds " + max);
        }
        return OAuth2TokenValidatorResult.success();
    }

    private static OAuth2TokenValidatorResult refuse(String why) {
        return OAuth2TokenValidatorResult.failure(new OAuth2Error("invalid_token", why, null));
    }
}
