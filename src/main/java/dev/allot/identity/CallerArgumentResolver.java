package dev.allot.identity;

import dev.allot.shared.AllotException;
import dev.allot.shared.security.Caller;
import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodParameter;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/** Lets any controller method take the current {@link Caller} as a parameter. */
@Component
class CallerArgumentResolver implements HandlerMethodArgumentResolver {

    private final Callers callers;

    CallerArgumentResolver(Callers callers) {
        this.callers = callers;
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return Caller.class.equals(parameter.getParameterType());
    }

    @Override
    public Caller resolveArgument(
            MethodParameter parameter,
            @Nullable ModelAndViewContainer mav,
            NativeWebRequest request,
            @Nullable WebDataBinderFactory binderFactory) {
        Caller caller =
                callers.forAuthentication(SecurityContextHolder.getContext().getAuthentication());
        if (caller == null) {
            throw new AllotException(401, "unauthenticated", "Unauthenticated", "Sign in or send a bearer token");
        }
        return caller;
    }
}
