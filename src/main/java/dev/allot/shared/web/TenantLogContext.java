package dev.allot.shared.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Puts the tenant of a {@code /tenants/{tenant}/...} request into the log context as {@code tenantId}, and who
 * calls (a client id or a user's subject) as {@code caller}, beside the {@code requestId} of {@link RequestIds}:
 * every log line of the request carries them, as text or as fields of the JSON logs. With the logger
 * {@code allot.requests} at DEBUG, each handled request also logs one line: method, path, status and duration.
 */
@Configuration(proxyBeanMethods = false)
class TenantLogContext implements WebMvcConfigurer, HandlerInterceptor {

    static final String MDC_KEY = "tenantId";

    static final String CALLER_KEY = "caller";

    private static final Logger requests = LoggerFactory.getLogger("allot.requests");

    private static final String STARTED = TenantLogContext.class.getName() + ".started";

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this);
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE) instanceof Map<?, ?> variables
                && variables.get("tenant") instanceof String tenant) {
            MDC.put(MDC_KEY, tenant);
        }
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication != null
                && authentication.isAuthenticated()
                && !(authentication instanceof AnonymousAuthenticationToken)) {
            MDC.put(CALLER_KEY, authentication.getName());
        }
        request.setAttribute(STARTED, System.nanoTime());
        return true;
    }

    @Override
    public void afterCompletion(
            HttpServletRequest request, HttpServletResponse response, Object handler, @Nullable Exception ex) {
        if (requests.isDebugEnabled() && request.getAttribute(STARTED) instanceof Long started) {
            requests.debug(
                    "{} {} {} {} ms",
                    request.getMethod(),
                    StorableInput.printable(request.getRequestURI()),
                    response.getStatus(),
                    (System.nanoTime() - started) / 1_000_000);
        }
        MDC.remove(MDC_KEY);
        MDC.remove(CALLER_KEY);
    }
}
