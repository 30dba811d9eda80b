package dev.allot.identity.throttle;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Spends one request of the authenticated caller's {@code /api/**} budget (by client id or username, on every
 * replica together, counted in memory: {@link ApiCallCounts}) and answers 429 when it is gone, before the request reaches a controller. Sits in the API
 * filter chain after authentication; not a bean, so the servlet container does not run it a second time.
 */
public class ApiRateLimit extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger("allot.security");

    private final ApiCallCounts counts;

    private final JsonMapper json;

    public ApiRateLimit(ApiCallCounts counts, JsonMapper json) {
        this.counts = counts;
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication caller = SecurityContextHolder.getContext().getAuthentication();
        if (caller == null || !caller.isAuthenticated()) {
            chain.doFilter(request, response);
            return;
        }
        Optional<Duration> wait = counts.tryAcquire(caller.getName());
        if (wait.isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        log.warn("event=api_call outcome=throttled principal=" + SignInAudit.value(caller.getName()) + " address="
                + SignInAudit.value(request.getRemoteAddr()) + " path=" + SignInAudit.value(request.getRequestURI())
                + " reason=caller_rate_limit");
        TooManyRequests.problem(
                json,
                response,
                wait.get(),
                "Too many API calls: at most " + counts.limit().capacity() + " per "
                        + counts.limit().period());
    }
}
