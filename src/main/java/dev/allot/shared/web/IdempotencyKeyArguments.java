package dev.allot.shared.web;

import dev.allot.shared.IdempotencyKey;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Lets a creating endpoint take the {@link IdempotencyKey} that {@link IdempotentCreates} claimed for the request
 * ({@code null} when the request carried none), to keep it with what it creates.
 */
@Configuration(proxyBeanMethods = false)
class IdempotencyKeyArguments implements WebMvcConfigurer, HandlerMethodArgumentResolver {

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(this);
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return IdempotencyKey.class.equals(parameter.getParameterType());
    }

    @Override
    public @Nullable IdempotencyKey resolveArgument(
            MethodParameter parameter,
            @Nullable ModelAndViewContainer mav,
            NativeWebRequest request,
            @Nullable WebDataBinderFactory binderFactory) {
        return (IdempotencyKey) request.getAttribute(IdempotencyKey.class.getName(), RequestAttributes.SCOPE_REQUEST);
    }
}
