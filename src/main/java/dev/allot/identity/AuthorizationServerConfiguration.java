package dev.allot.identity;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.allot.identity.keys.SigningKeys;
import dev.allot.identity.settings.SecurityProperties;
import dev.allot.identity.tokens.HashedTokenAuthorizations;
import dev.allot.identity.tokens.Issuer;
import dev.allot.identity.tokens.RevokedTokens;
import dev.allot.identity.tokens.TokenLifetime;
import dev.allot.shared.security.Caller;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.core.oidc.endpoint.OidcParameterNames;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.JwtTypeValidator;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;
import org.springframework.security.oauth2.server.authorization.JdbcOAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.client.JdbcRegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.AuthorizationServerSettings;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;

/**
 * Allot's own OAuth2 authorization server: clients and authorizations in PostgreSQL (any replica serves any
 * step of a flow), tokens signed with the stored keys, and the resource server verifying them locally.
 */
@Configuration(proxyBeanMethods = false)
class AuthorizationServerConfiguration {

    /** The JOSE type of Allot's access tokens (RFC 9068); ID tokens keep {@code JWT}. */
    static final JOSEObjectType ACCESS_TOKEN_TYPE = new JOSEObjectType("at+jwt");

    @Bean
    RegisteredClientRepository registeredClientRepository(JdbcTemplate jdbc) {
        return new JdbcRegisteredClientRepository(jdbc);
    }

    @Bean
    OAuth2AuthorizationService authorizationService(
            JdbcTemplate jdbc, RegisteredClientRepository clients, RevokedTokens revoked) {
        return new HashedTokenAuthorizations(new JdbcOAuth2AuthorizationService(jdbc, clients), revoked);
    }

    @Bean
    AuthorizationServerSettings authorizationServerSettings(SecurityProperties properties, Issuer issuer) {
        // Without a public URL (a random test port) the issuer follows the request, which is the loopback address.
        var settings = AuthorizationServerSettings.builder();
        return (properties.publicUrl() != null ? settings.issuer(issuer.get()) : settings).build();
    }

    @Bean
    PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    @Bean
    JwtEncoder jwtEncoder(SigningKeys keys) {
        return new NimbusJwtEncoder(keys.forSigning());
    }

    /**
     * Verifies locally against the stored keys: an access token ({@code typ at+jwt}), its signature, expiry (a
     * minute of skew), Allot's issuer, a lifetime no longer than the configured maximum, and not revoked.
     */
    @Bean
    JwtDecoder jwtDecoder(
            SigningKeys keys,
            Issuer expectedIssuer,
            SecurityProperties properties,
            Clock clock,
            RevokedTokens revoked) {
        DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.RS256, keys));
        // only access tokens (here and in the validators below): an ID token of the UI (audience allot-ui, 30
        // minutes) was accepted as a bearer token
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(ACCESS_TOKEN_TYPE));
        processor.setJWTClaimsSetVerifier((claims, context) -> {});
        NimbusJwtDecoder decoder = new NimbusJwtDecoder(processor);
        OAuth2TokenValidator<Jwt> issuer = jwt -> expectedIssuer.get().equals(String.valueOf(jwt.getIssuer()))
                ? OAuth2TokenValidatorResult.success()
                : OAuth2TokenValidatorResult.failure(
                        new OAuth2Error("invalid_token", "The token has another issuer", null));
        decoder.setJwtValidator(new DelegatingOAuth2TokenValidator<>(
                new JwtTimestampValidator(),
                new JwtTypeValidator(ACCESS_TOKEN_TYPE.getType()),
                issuer,
                new TokenLifetime(properties.maxTokenLifetime(), clock),
                revoked));
        return decoder;
    }

    /**
     * Adds the caller's platform roles and tenant roles to access tokens and ID tokens. An access token lives no
     * longer than {@code allot.security.access-token-ttl} says now, whatever its client was registered with: a
     * client keeps the lifetime it was registered with, so once the cap was lowered the token endpoint issued
     * tokens the API refused ({@code 401 "lifetime exceeds PT3M"}).
     */
    @Bean
    OAuth2TokenCustomizer<JwtEncodingContext> tokenClaims(Callers callers, SecurityProperties properties) {
        return context -> {
            boolean accessToken = OAuth2TokenType.ACCESS_TOKEN.equals(context.getTokenType());
            boolean idToken =
                    OidcParameterNames.ID_TOKEN.equals(context.getTokenType().getValue());
            if (!accessToken && !idToken) {
                return;
            }
            if (accessToken) {
                capLifetime(context.getClaims(), properties.accessTokenTtl());
                // RFC 9068: what the API accepts, and an ID token (typ JWT, same audience) is not
                context.getJwsHeader().type(ACCESS_TOKEN_TYPE.getType());
            }
            String subject = context.getPrincipal().getName();
            Caller caller = AuthorizationGrantType.CLIENT_CREDENTIALS.equals(context.getAuthorizationGrantType())
                    ? callers.forClient(subject)
                    : callers.forLocalUser(subject);
            if (caller == null) {
                return;
            }
            Callers.claimsOf(caller)
                    .forEach((name, value) -> context.getClaims().claim(name, value));
            if (idToken) {
                context.getClaims().claim("preferred_username", caller.subject());
            }
        };
    }

    private static void capLifetime(JwtClaimsSet.Builder claims, Duration ttl) {
        JwtClaimsSet set = claims.build();
        Instant issued = set.getIssuedAt();
        Instant expires = set.getExpiresAt();
        if (issued != null && expires != null && expires.isAfter(issued.plus(ttl))) {
            claims.expiresAt(issued.plus(ttl));
        }
    }
}
