package dev.allot.identity.signin;

import dev.allot.identity.tokens.Issuer;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.security.web.AuthenticationEntryPoint;

/**
 * The quick start's sign-in from either loopback name. The sign-in is an OIDC flow whose redirect URI is registered
 * for the public URL ({@code http://127.0.0.1:8080}); started at {@code http://localhost:8080} it kept its state in
 * the localhost session, came back to 127.0.0.1 without it and failed as "Wrong username or password". A visitor on
 * another loopback name than the public URL's is sent to the same page on the public URL before the sign-in starts.
 * Only loopback names are compared: behind a proxy the request's own host and port differ from the public URL by
 * design, and the Location is always the configured URL, never one built from the request's Host.
 */
public final class LoopbackSignIn {

    private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

    private LoopbackSignIn() {}

    public static AuthenticationEntryPoint toPublicUrl(Issuer issuer, AuthenticationEntryPoint signIn) {
        return (request, response, failure) -> {
            String target = elsewhere(request, issuer.get());
            if (target != null) {
                response.sendRedirect(target);
                return;
            }
            signIn.commence(request, response, failure);
        };
    }

    /** The same page on the public URL when the request came by another loopback name, else null. */
    static @Nullable String elsewhere(HttpServletRequest request, String publicUrl) {
        URI url = URI.create(publicUrl);
        String host = request.getServerName();
        if (!"GET".equals(request.getMethod())
                || url.getHost() == null
                || !LOOPBACK.contains(host)
                || !LOOPBACK.contains(url.getHost())
                || host.equals(url.getHost())) {
            return null;
        }
        String query = request.getQueryString();
        return publicUrl + request.getRequestURI() + (query == null ? "" : "?" + query);
    }
}
