package dev.allot.identity.signin;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.web.DefaultRedirectStrategy;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;
import org.springframework.security.web.authentication.SimpleUrlAuthenticationFailureHandler;

/**
 * Sends a failed sign-in back to the login page, keeping in the session only what that page shows: the error of an
 * external issuer's sign-in (its code and description), never the exception itself. Since Spring Security 6 an
 * {@link AuthenticationException} carries the authentication request, with the password that was typed, and the
 * session is written to PostgreSQL: a typo, or a password typed under the wrong name, ended up in
 * {@code spring_session_attributes} and its backups.
 */
public final class FailedSignInPage implements AuthenticationFailureHandler {

    private final SimpleUrlAuthenticationFailureHandler redirect =
            new SimpleUrlAuthenticationFailureHandler("/login?error");

    private final DefaultRedirectStrategy plain = new DefaultRedirectStrategy();

    @Override
    public void onAuthenticationFailure(
            HttpServletRequest request, HttpServletResponse response, AuthenticationException failure)
            throws IOException, ServletException {
        if (failure instanceof OAuth2AuthenticationException refused) {
            // what the login page reads, without the request (an authorization code, a token) it failed on
            this.redirect.onAuthenticationFailure(
                    request, response, new OAuth2AuthenticationException(refused.getError(), refused.getMessage()));
            return;
        }
        this.plain.sendRedirect(request, response, "/login?error");
    }
}
