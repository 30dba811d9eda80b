package dev.allot.identity.signin;

import dev.allot.identity.tokens.HashedTokenAuthorizations;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.FactorGrantedAuthority;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.oidc.userinfo.OidcUserRequest;
import org.springframework.security.oauth2.client.oidc.userinfo.OidcUserService;
import org.springframework.security.oauth2.client.userinfo.OAuth2UserService;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizedClientRepository;
import org.springframework.security.oauth2.core.oidc.OidcIdToken;
import org.springframework.security.oauth2.core.oidc.user.DefaultOidcUser;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.security.oauth2.core.oidc.user.OidcUserAuthority;

/**
 * The browser's sign-in leaves no usable token in its session (sessions live in PostgreSQL): the UI never
 * calls an API with the tokens it receives at sign-in, so the access token is not kept at all, and the
 * signed-in user keeps the ID token's claims but only a hash of its value.
 */
public final class TokenlessSessions {

    private TokenlessSessions() {}

    public static OAuth2AuthorizedClientRepository authorizedClients() {
        return new OAuth2AuthorizedClientRepository() {
            @Override
            public <T extends OAuth2AuthorizedClient> @Nullable T loadAuthorizedClient(
                    String registrationId, @Nullable Authentication principal, HttpServletRequest request) {
                return null;
            }

            @Override
            public void saveAuthorizedClient(
                    OAuth2AuthorizedClient client,
                    @Nullable Authentication principal,
                    HttpServletRequest request,
                    HttpServletResponse response) {}

            @Override
            public void removeAuthorizedClient(
                    String registrationId,
                    @Nullable Authentication principal,
                    HttpServletRequest request,
                    HttpServletResponse response) {}
        };
    }

    public static OAuth2UserService<OidcUserRequest, OidcUser> oidcUsers(Consumer<OidcUser> admit) {
        OidcUserService loader = new OidcUserService();
        return request -> {
            OidcUser user = loader.loadUser(request);
            admit.accept(user);
            OidcIdToken token = user.getIdToken();
            OidcIdToken claimsOnly = new OidcIdToken(
                    HashedTokenAuthorizations.hash(token.getTokenValue()),
                    token.getIssuedAt(),
                    token.getExpiresAt(),
                    token.getClaims());
            // the authorities carry the ID token too (OidcUserAuthority)
            List<GrantedAuthority> authorities = new ArrayList<>(user.getAuthorities().stream()
                    .map(authority -> authority instanceof OidcUserAuthority oidc
                            ? new OidcUserAuthority(oidc.getAuthority(), claimsOnly, oidc.getUserInfo())
                            : (GrantedAuthority) authority)
                    .toList());
            // when the user signed in: the authorization server takes an ID token's auth_time from it, and without
            // it a later authorization of this session failed its code exchange with 500 ("authenticationTime
            // cannot be null") and left the code unused
            Instant authenticated = token.getAuthenticatedAt() != null
                    ? token.getAuthenticatedAt()
                    : token.getIssuedAt() != null ? token.getIssuedAt() : Instant.now();
            authorities.add(FactorGrantedAuthority.withAuthority(FactorGrantedAuthority.AUTHORIZATION_CODE_AUTHORITY)
                    .issuedAt(authenticated)
                    .build());
            String nameAttribute = request.getClientRegistration()
                    .getProviderDetails()
                    .getUserInfoEndpoint()
                    .getUserNameAttributeName();
            return nameAttribute == null || nameAttribute.isBlank()
                    ? new DefaultOidcUser(authorities, claimsOnly, user.getUserInfo())
                    : new DefaultOidcUser(authorities, claimsOnly, user.getUserInfo(), nameAttribute);
        };
    }
}
