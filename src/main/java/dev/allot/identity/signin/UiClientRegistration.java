package dev.allot.identity.signin;

import dev.allot.identity.settings.SecurityProperties;
import dev.allot.identity.tokens.Issuer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.client.registration.ClientRegistrations;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.util.function.SingletonSupplier;

/**
 * The browser UI is an OIDC client: of Allot's own issuer (a public client with PKCE, endpoints known without
 * discovery, so start-up does not call the not-yet-listening server), or of an external issuer, discovered on
 * first use.
 */
@Configuration(proxyBeanMethods = false)
public class UiClientRegistration {

    public static final String ID = "allot";

    public static final String CLIENT_ID = "allot-ui";

    @Bean
    ClientRegistrationRepository clientRegistrationRepository(
            SecurityProperties properties, ExternalClientProperties external, Issuer issuer) {
        Supplier<ClientRegistration> registration = SingletonSupplier.of(
                () -> properties.issuerUri() == null ? local(issuer) : external(properties, external, issuer));
        return new ClientRegistrationRepository() {
            @Override
            public @Nullable ClientRegistration findByRegistrationId(String registrationId) {
                return ID.equals(registrationId) ? registration.get() : null;
            }
        };
    }

    static String redirectUri(Issuer issuer) {
        return issuer.get() + "/login/oauth2/code/" + ID;
    }

    private static ClientRegistration local(Issuer issuer) {
        String url = issuer.get();
        return ClientRegistration.withRegistrationId(ID)
                .clientName("Allot")
                .clientId(CLIENT_ID)
                .clientAuthenticationMethod(ClientAuthenticationMethod.NONE)
                .authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
                .redirectUri(redirectUri(issuer))
                .scope("openid", "profile")
                .authorizationUri(url + "/oauth2/authorize")
                .tokenUri(url + "/oauth2/token")
                .jwkSetUri(url + "/oauth2/jwks")
                .issuerUri(url)
                .userNameAttributeName("sub")
                .build();
    }

    private static ClientRegistration external(
            SecurityProperties properties, ExternalClientProperties external, Issuer issuer) {
        return ClientRegistrations.fromIssuerLocation(String.valueOf(properties.issuerUri()))
                .registrationId(ID)
                .clientName("Allot")
                .clientId(external.clientId())
                .clientSecret(external.clientSecret())
                .redirectUri(redirectUri(issuer))
                .scope("openid", "profile", "email")
                .userNameAttributeName(properties.usernameClaim())
                .build();
    }
}
