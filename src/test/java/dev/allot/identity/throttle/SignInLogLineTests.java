package dev.allot.identity.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.DisabledException;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;

class SignInLogLineTests {

    @Test
    void aPlainValueIsWrittenAsIs() {
        assertThat(SignInAudit.value("sa-3f9c")).isEqualTo("sa-3f9c");
        assertThat(SignInAudit.value(null)).isEqualTo("-");
        assertThat(SignInAudit.value("")).isEqualTo("-");
    }

    @Test
    void aTypedUsernameCannotForgeAKeyOrALine() {
        assertThat(SignInAudit.value("bob outcome=succeeded")).isEqualTo("\"bob outcome=succeeded\"");
        assertThat(SignInAudit.value("bob\nevent=sign_in outcome=succeeded"))
                .isEqualTo("\"bob?event=sign_in outcome=succeeded\"")
                .doesNotContain("\n");
        assertThat(SignInAudit.value("a\"b")).isEqualTo("\"a\\\"b\"");
    }

    @Test
    void unicodeLineAndParagraphSeparatorsStartNoLine() {
        assertThat(SignInAudit.value("bob\u2028event=sign_in outcome=succeeded"))
                .doesNotContain("\u2028")
                .isEqualTo("\"bob?event=sign_in outcome=succeeded\"");
        assertThat(SignInAudit.value("bob\u2029x\u0085y")).isEqualTo("bob?x?y");
    }

    @Test
    void reasonsAreShortCodes() {
        assertThat(SignInAudit.reason(new BadCredentialsException("Bad credentials")))
                .isEqualTo("bad_credentials");
        assertThat(SignInAudit.reason(new DisabledException("off"))).isEqualTo("disabled");
        assertThat(SignInAudit.reason(new OAuth2AuthenticationException("invalid_client")))
                .isEqualTo("invalid_client");
    }
}
