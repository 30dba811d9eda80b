package dev.allot.identity.tokens;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2DeviceCode;
import org.springframework.security.oauth2.core.OAuth2RefreshToken;
import org.springframework.security.oauth2.core.OAuth2Token;
import org.springframework.security.oauth2.core.OAuth2UserCode;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.core.oidc.OidcIdToken;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationCode;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;

/**
 * Stores authorizations with every token (access, ID, refresh token, authorization, device and user codes)
 * replaced by its SHA-256, so a copy of {@code oauth2_authorization} holds no token anyone can use. A lookup
 * hashes the presented value; the authorization it finds carries the presented value in place of the hash
 * (revocation and introspection look the token up by value in it), and is hashed again when saved. Tokens
 * are long random or signed strings, so an unsalted hash is as good as a password hash here, and findable.
 */
public final class HashedTokenAuthorizations implements OAuth2AuthorizationService {

    static final String HASHED = "sha256:";

    private static final OAuth2TokenType STATE = new OAuth2TokenType(OAuth2ParameterNames.STATE);

    private static final List<Class<? extends OAuth2Token>> TOKENS = List.of(
            OAuth2AuthorizationCode.class,
            OAuth2AccessToken.class,
            OidcIdToken.class,
            OAuth2RefreshToken.class,
            OAuth2UserCode.class,
            OAuth2DeviceCode.class);

    private final OAuth2AuthorizationService stored;

    private final RevokedTokens revoked;

    public HashedTokenAuthorizations(OAuth2AuthorizationService stored, RevokedTokens revoked) {
        this.stored = stored;
        this.revoked = revoked;
    }

    @Override
    public void save(OAuth2Authorization authorization) {
        OAuth2Authorization.Token<OAuth2AccessToken> access = authorization.getAccessToken();
        if (access != null && access.isInvalidated() && access.getToken().getExpiresAt() != null) {
            String value = access.getToken().getTokenValue();
            this.revoked.revoke(
                    value.startsWith(HASHED) ? value : hash(value),
                    access.getToken().getExpiresAt());
        }
        OAuth2Authorization.Builder hashed = OAuth2Authorization.from(authorization);
        for (Class<? extends OAuth2Token> type : TOKENS) {
            OAuth2Authorization.Token<? extends OAuth2Token> token = authorization.getToken(type);
            if (token != null && !token.getToken().getTokenValue().startsWith(HASHED)) {
                hashed.token(withValue(token.getToken(), hash(token.getToken().getTokenValue())), metadata -> {});
            }
        }
        stored.save(hashed.build());
    }

    @Override
    public void remove(OAuth2Authorization authorization) {
        stored.remove(authorization);
    }

    @Override
    public @Nullable OAuth2Authorization findById(String id) {
        return stored.findById(id);
    }

    @Override
    public @Nullable OAuth2Authorization findByToken(String token, @Nullable OAuth2TokenType tokenType) {
        if (STATE.equals(tokenType)) {
            // the state of a pending consent is a one-time lookup key, not a credential
            return stored.findByToken(token, tokenType);
        }
        OAuth2Authorization found = stored.findByToken(hash(token), tokenType);
        if (found == null) {
            return tokenType == null ? stored.findByToken(token, STATE) : null;
        }
        return presented(found, token);
    }

    /** The authorization with the token whose hash matched carrying the value the caller presented. */
    private static OAuth2Authorization presented(OAuth2Authorization authorization, String value) {
        String hash = hash(value);
        OAuth2Authorization.Builder builder = OAuth2Authorization.from(authorization);
        for (Class<? extends OAuth2Token> type : TOKENS) {
            OAuth2Authorization.Token<? extends OAuth2Token> token = authorization.getToken(type);
            if (token != null && token.getToken().getTokenValue().equals(hash)) {
                builder.token(withValue(token.getToken(), value), metadata -> {});
            }
        }
        return builder.build();
    }

    public static String hash(String value) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
            return HASHED + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static OAuth2Token withValue(OAuth2Token token, String value) {
        return switch (token) {
            case OAuth2AccessToken access ->
                new OAuth2AccessToken(
                        access.getTokenType(), value, access.getIssuedAt(), access.getExpiresAt(), access.getScopes());
            case OidcIdToken id -> new OidcIdToken(value, id.getIssuedAt(), id.getExpiresAt(), id.getClaims());
            case OAuth2RefreshToken refresh ->
                new OAuth2RefreshToken(value, refresh.getIssuedAt(), refresh.getExpiresAt());
            case OAuth2AuthorizationCode code ->
                new OAuth2AuthorizationCode(value, code.getIssuedAt(), code.getExpiresAt());
            case OAuth2UserCode user -> new OAuth2UserCode(value, user.getIssuedAt(), user.getExpiresAt());
            case OAuth2DeviceCode device -> new OAuth2DeviceCode(value, device.getIssuedAt(), device.getExpiresAt());
            default ->
                throw new IllegalStateException("Refusing to store a token of unknown type "
                        + token.getClass().getName() + " in clear");
        };
    }
}
