package dev.allot.shared.web;

import dev.allot.shared.InvalidInputException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * An API request naming a query parameter its operation does not take answers 400 (API.md): {@code ?limt=10} or
 * {@code ?sort=name} would otherwise answer 200 with the default page, and a client would never learn that its
 * filter was ignored. The parameters an operation takes are its {@code @RequestParam}s and those its mapping's
 * {@code params} conditions name; only the query string is read, so a form body never counts.
 */
@Configuration(proxyBeanMethods = false)
class KnownQueryParameters implements WebMvcConfigurer, HandlerInterceptor {

    /** The parameters each operation takes; {@code *} when it takes a map of them all. */
    private final Map<Method, Set<String>> taken = new ConcurrentHashMap<>();

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this).addPathPatterns("/api/**");
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        String query = request.getQueryString();
        if (query == null || query.isEmpty() || !(handler instanceof HandlerMethod method)) {
            return true;
        }
        Set<String> known = taken.computeIfAbsent(method.getMethod(), m -> parameters(method));
        if (known.contains("*")) {
            return true;
        }
        List<InvalidInputException.FieldError> unknown = new ArrayList<>();
        for (String name : names(query)) {
            if (!known.contains(name)) {
                unknown.add(new InvalidInputException.FieldError(
                        StorableInput.printable(name),
                        known.isEmpty()
                                ? "is not a parameter of this operation, which takes none"
                                : "is not a parameter of this operation, which takes " + String.join(", ", known)));
            }
        }
        if (!unknown.isEmpty()) {
            RejectedRequests.drain(request);
            throw new InvalidInputException(unknown);
        }
        return true;
    }

    private static Set<String> parameters(HandlerMethod method) {
        Set<String> names = new TreeSet<>();
        // a mapping's own conditions name parameters too: @GetMapping(params = "format=csv")
        for (AnnotatedElement element : List.of(method.getBeanType(), method.getMethod())) {
            RequestMapping mapping = AnnotatedElementUtils.findMergedAnnotation(element, RequestMapping.class);
            if (mapping != null) {
                for (String condition : mapping.params()) {
                    names.add(
                            condition.replaceFirst("^!", "").split("!?=", 2)[0].strip());
                }
            }
        }
        for (MethodParameter parameter : method.getMethodParameters()) {
            RequestParam param = parameter.getParameterAnnotation(RequestParam.class);
            if (param == null) {
                continue;
            }
            if (Map.class.isAssignableFrom(parameter.getParameterType())) {
                return Set.of("*");
            }
            String name = !param.name().isEmpty() ? param.name() : parameter.getParameterName();
            if (name != null) {
                names.add(name);
            }
        }
        return Collections.unmodifiableSet(names);
    }

    private static Set<String> names(String query) {
        Set<String> names = new LinkedHashSet<>();
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String raw = eq < 0 ? pair : pair.substring(0, eq);
            try {
                names.add(URLDecoder.decode(raw, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException malformed) {
                names.add(raw);
            }
        }
        return names;
    }
}
