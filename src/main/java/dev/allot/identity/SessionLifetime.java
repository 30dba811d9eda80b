package dev.allot.identity;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

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

	private final Clock clock;

	SessionLifetime(SecurityProperties properties, Clock clock) {
		this.lifetime = properties.sessionLifetime();
		this.clock = clock;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		HttpSession session = request.getSession(false);
		if (session != null && this.clock.millis() - session.getCreationTime() > this.lifetime.toMillis()) {
			session.invalidate();
		}
		chain.doFilter(request, response);
	}

}
