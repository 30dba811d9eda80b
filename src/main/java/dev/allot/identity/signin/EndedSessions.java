package dev.allot.identity.signin;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Set;
import org.springframework.http.MediaType;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.access.AccessDeniedHandlerImpl;
import org.springframework.security.web.csrf.CsrfException;
import org.springframework.security.web.savedrequest.HttpSessionRequestCache;
import org.springframework.security.web.savedrequest.RequestCache;
import org.springframework.security.web.util.matcher.AndRequestMatcher;
import org.springframework.security.web.util.matcher.MediaTypeRequestMatcher;
import org.springframework.security.web.util.matcher.NegatedRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestHeaderRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * A page whose session has ended must be told so, not sent through a sign-in it cannot follow or refused as if
 * its role were wrong. Requests a script makes (htmx's, with {@code HX-Request}, and event streams) get a bare
 * 401, which the page shows as "sign in again" while keeping what the user typed. A form posted after the session
 * ended fails its CSRF check: that is a lapsed session, not a forbidden act, so the browser is sent to sign in and
 * back (the booking form restores its values from the tab's storage).
 */
public final class EndedSessions {

    /** Requests made by a page's script rather than by navigation. */
    public static final RequestMatcher SCRIPTED =
            new OrRequestMatcher(new RequestHeaderRequestMatcher("HX-Request"), eventStreams());

    private EndedSessions() {}

    public static void unauthorized(
            HttpServletRequest request, HttpServletResponse response, AuthenticationException ex) throws IOException {
        answer401(response);
    }

    public static AccessDeniedHandler deniedHandler() {
        AccessDeniedHandlerImpl forbidden = new AccessDeniedHandlerImpl();
        return (HttpServletRequest request, HttpServletResponse response, AccessDeniedException denied) -> {
            if (!(denied instanceof CsrfException) || request.isRequestedSessionIdValid()) {
                forbidden.handle(request, response, denied);
                return;
            }
            if (SCRIPTED.matches(request)) {
                answer401(response);
                return;
            }
            // relative, like every redirect here: the path is ours, never taken from the request's headers
            String path = request.getServletPath();
            response.sendRedirect(path != null && path.startsWith("/book") ? "/book?restore=1" : "/");
        };
    }

    /**
     * Remembers for after the sign-in only the pages a person asked for: a script's call made while signed out
     * (a quote, an event stream reconnecting) must not replace the page the sign-in returns to.
     */
    // Spring Security documents null here (no "continue" parameter) though its parameter is not marked @Nullable
    @SuppressWarnings("NullAway")
    public static RequestCache pagesOnly() {
        HttpSessionRequestCache cache = new HttpSessionRequestCache();
        // back to the page's own address, without a "?continue" marker
        cache.setMatchingRequestParameterName(null);
        cache.setRequestMatcher(new AndRequestMatcher(
                request -> "GET".equals(request.getMethod()),
                new NegatedRequestMatcher(SCRIPTED),
                new NegatedRequestMatcher(new RequestHeaderRequestMatcher("X-Requested-With", "XMLHttpRequest")),
                new NegatedRequestMatcher(request -> "/favicon.ico".equals(request.getServletPath()))));
        return cache;
    }

    private static void answer401(HttpServletResponse response) throws IOException {
        response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
        response.setContentType(MediaType.TEXT_PLAIN_VALUE);
        response.getWriter().write("Your session has ended: sign in again.");
    }

    private static RequestMatcher eventStreams() {
        MediaTypeRequestMatcher matcher = new MediaTypeRequestMatcher(MediaType.TEXT_EVENT_STREAM);
        matcher.setIgnoredMediaTypes(Set.of(MediaType.ALL));
        return matcher;
    }
}
