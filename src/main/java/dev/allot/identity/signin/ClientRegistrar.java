package dev.allot.identity.signin;

import dev.allot.identity.accounts.ServiceAccounts;
import dev.allot.identity.settings.SecurityProperties;
import dev.allot.identity.tokens.Issuer;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.ClientSettings;
import org.springframework.security.oauth2.server.authorization.settings.TokenSettings;
import org.springframework.stereotype.Component;

/**
 * Registers, at each start, the clients that configuration defines: the browser UI (of Allot's own issuer) and
 * the optional platform-admin bootstrap client. Safe when several replicas start at once.
 */
@Component
class ClientRegistrar implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(ClientRegistrar.class);

    private final RegisteredClientRepository clients;

    private final PasswordEncoder passwords;

    private final SecurityProperties properties;

    private final Issuer issuer;

    ClientRegistrar(
            RegisteredClientRepository clients,
            PasswordEncoder passwords,
            SecurityProperties properties,
            Issuer issuer) {
        this.clients = clients;
        this.passwords = passwords;
        this.properties = properties;
        this.issuer = issuer;
    }

    @Override
    public void run(ApplicationArguments args) {
        save(RegisteredClient.withId(UiClientRegistration.CLIENT_ID)
                .clientId(UiClientRegistration.CLIENT_ID)
                .clientName("Allot web UI")
                .clientAuthenticationMethod(ClientAuthenticationMethod.NONE)
                .authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
                .redirectUri(UiClientRegistration.redirectUri(issuer))
                .scope("openid")
                .scope("profile")
                .clientSettings(ClientSettings.builder()
                        .requireProofKey(true)
                        .requireAuthorizationConsent(false)
                        .build())
                .tokenSettings(TokenSettings.builder()
                        .accessTokenTimeToLive(Duration.ofMinutes(5))
                        .build())
                .build());
        if (properties.hasBootstrapClient()) {
            String clientId = String.valueOf(properties.bootstrapClientId());
            RegisteredClient existing = clients.findByClientId(clientId);
            String secret = String.valueOf(properties.bootstrapClientSecret());
            String hash = (existing != null
                            && existing.getClientSecret() != null
                            && passwords.matches(secret, existing.getClientSecret()))
                    ? existing.getClientSecret()
                    : passwords.encode(secret);
            save(RegisteredClient.withId("bootstrap-" + clientId)
                    .clientId(clientId)
                    .clientName("Platform bootstrap client")
                    .clientSecret(hash)
                    .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
                    .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_POST)
                    .authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
                    .scope(ServiceAccounts.API_SCOPE)
                    .tokenSettings(TokenSettings.builder()
                            .accessTokenTimeToLive(properties.accessTokenTtl())
                            .build())
                    .build());
            log.info("Bootstrap platform-admin client '{}' registered", clientId);
        }
    }

    private void save(RegisteredClient client) {
        try {
            clients.save(client);
        } catch (DuplicateKeyException raced) {
            // another replica inserted it first; ours is the same, so update it
            clients.save(client);
        }
    }
}
