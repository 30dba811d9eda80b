package dev.allot.identity.signin;

import dev.allot.identity.settings.SecurityProperties;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.time.Duration;
import org.springframework.core.annotation.Order;
import org.springframework.session.web.http.SessionRepositoryFilter;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Ends a browser session {@code allot.security.session-lifetime} (12 hours) after it started, however active it
 * was: the idle timeout alone let a session that is used every half hour, or a stolen cookie kept busy, live for
 * ever. Runs after Spring Session has read the session and before Spring Security reads who signed in, so the
 * request goes on as anonymous (a page is sent to sign in again).
 */
@Component
@Order(SessionRepositoryFilter.DEFAULT_ORDER + 10)
class SessionLifetime extends OncePerRequestFilter {

    private final Duration lifetime;

    SessionLifetime(SecurityProperties properties) {
        this.lifetime = properties.sessionLifetime();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        HttpSession session = request.getSession(false);
        // against the system clock, which Spring Session stamps a session's creation with (not the application's
        // Clock, which tests set years ahead: every session would then have looked expired)
        if (session != null && System.currentTimeMillis() - session.getCreationTime() > this.lifetime.toMillis()) {
            session.invalidate();
        }
        chain.doFilter(request, response);
    }
}
