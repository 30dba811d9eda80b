package dev.allot.shared.web;

import dev.allot.shared.AllotException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * With {@code allot.api.require-if-match=true}, every update of a versioned resource (an operation that reads
 * {@code If-Match}: a quota, a budget, a pool, a tenant) answers {@code 428 precondition_required} without it, as
 * extending a reservation always does: a blind write would undo a change made since the writer read. Off by
 * default, because API.md, which clients are written from, names {@code If-Match} only for the extension; a
 * deployment whose clients all send it turns it on (docs/api-guide.md, "Using the API from CI").
 */
@Configuration(proxyBeanMethods = false)
class RequiredIfMatch implements WebMvcConfigurer, HandlerInterceptor {

    private static final String IF_MATCH = "If-Match";

    private final boolean required;

    RequiredIfMatch(@Value("${allot.api.require-if-match:false}") boolean required) {
        this.required = required;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        if (required) {
            registry.addInterceptor(this).addPathPatterns("/api/**");
        }
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (handler instanceof HandlerMethod method && request.getHeader(IF_MATCH) == null && readsIfMatch(method)) {
            throw AllotException.preconditionRequired(
                    "Send the resource's ETag in If-Match (or * for any version): " + "GET it first");
        }
        return true;
    }

    private static boolean readsIfMatch(HandlerMethod method) {
        for (MethodParameter parameter : method.getMethodParameters()) {
            RequestHeader header = parameter.getParameterAnnotation(RequestHeader.class);
            if (header != null && IF_MATCH.equalsIgnoreCase(header.name().isEmpty() ? header.value() : header.name())) {
                return true;
            }
        }
        return false;
    }
}
