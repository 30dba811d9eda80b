package dev.allot.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.identity.signin.ExternalIdentities;
import dev.allot.support.IntegrationTest;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.security.oauth2.core.oidc.OidcIdToken;
import org.springframework.security.oauth2.core.oidc.user.DefaultOidcUser;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;

/**
 * Users of an external issuer are known by {@code iss} + {@code sub}: renaming yourself at the provider keeps
 * your own username, and cannot take anyone else's (nor their memberships).
 */
class ExternalIdentitiesTests extends IntegrationTest {

    private static final String KEYCLOAK = "https://sso.example/realms/gpu";

    @Autowired
    private Callers callers;

    @Test
    void theFirstSignInLinksTheSubjectAndLaterClaimsAreIgnored() {
        String alice = unique("alice");
        String subject = unique("sub");
        assertThat(callers.externalUsername(user(KEYCLOAK, subject, alice))).isEqualTo(alice);
        assertThat(callers.externalUsername(user(KEYCLOAK, subject, "someone-else")))
                .isEqualTo(alice);
        assertThat(callers.externalUsername(user(KEYCLOAK, subject, null))).isEqualTo(alice);
        assertThat(jdbc.sql(
                                "SELECT count(*) FROM audit_event WHERE action = 'external-identity.created' AND object_id = ?")
                        .param(alice)
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
    }

    @Test
    void anotherSubjectRenamedToALinkedUsernameIsRefused() {
        String alice = unique("alice");
        String aliceSubject = unique("sub");
        callers.externalUsername(user(KEYCLOAK, aliceSubject, alice));
        long links = links();

        String mallory = unique("sub");
        assertThatThrownBy(() -> callers.externalUsername(user(KEYCLOAK, mallory, alice)))
                .isInstanceOf(ExternalIdentities.IdentityConflictException.class)
                .hasMessageContaining("already belongs to another account");
        assertThatThrownBy(() -> callers.externalUsername(user(KEYCLOAK, mallory, alice.toUpperCase())))
                .isInstanceOf(ExternalIdentities.IdentityConflictException.class);
        // the same subject at another issuer is another person
        assertThatThrownBy(() -> callers.externalUsername(user("https://other.example", aliceSubject, alice)))
                .isInstanceOf(ExternalIdentities.IdentityConflictException.class);
        assertThat(links()).isEqualTo(links);
    }

    @Test
    void aClaimThatIsNoUsableUsernameIsRefused() {
        for (String claim : new String[] {null, "", "x", "Has Space", "a".repeat(41), "1abc", "bad\u0000name"}) {
            assertThatThrownBy(() -> callers.externalUsername(user(KEYCLOAK, unique("sub"), claim)))
                    .as(claim)
                    .isInstanceOf(ExternalIdentities.IdentityConflictException.class)
                    .hasMessageContaining("no usable username");
        }
    }

    private long links() {
        return jdbc.sql("SELECT count(*) FROM external_identity")
                .query(Long.class)
                .single();
    }

    private static OidcUser user(String issuer, String subject, String preferredUsername) {
        Map<String, Object> claims = new HashMap<>(Map.of("iss", issuer, "sub", subject));
        if (preferredUsername != null) {
            claims.put("preferred_username", preferredUsername);
        }
        Instant now = Instant.now();
        return new DefaultOidcUser(List.of(), new OidcIdToken("id-token", now, now.plusSeconds(300), claims));
    }
}
