package dev.allot.shared.web;

import dev.allot.shared.CursorPage;
import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * A page of a long list that has a next one answers {@code Link: <...>; rel="next"} (RFC 8288): the same request
 * with {@code cursor} set to the page's {@code next} and {@code page} left out. The target is relative (path and
 * query), so it never names a host a proxy or a forged {@code Host} header chose.
 */
@RestControllerAdvice
class NextPageLinks implements ResponseBodyAdvice<Object> {

    @Override
    public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public @Nullable Object beforeBodyWrite(
            @Nullable Object body,
            MethodParameter returnType,
            MediaType selectedContentType,
            Class<? extends HttpMessageConverter<?>> selectedConverterType,
            ServerHttpRequest request,
            ServerHttpResponse response) {
        if (body instanceof CursorPage<?> page && page.next() != null) {
            String target = UriComponentsBuilder.fromUri(request.getURI())
                    .scheme(null)
                    .host(null)
                    .port(null)
                    .replaceQueryParam("page")
                    .replaceQueryParam("cursor", page.next())
                    .build()
                    .toUriString();
            response.getHeaders().add(HttpHeaders.LINK, "<" + target + ">; rel=\"next\"");
        }
        return body;
    }
}
