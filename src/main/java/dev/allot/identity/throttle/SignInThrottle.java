package dev.allot.identity.throttle;

import dev.allot.identity.accounts.Usernames;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Answers a sign-in attempt (the login form, or a client authenticating at the token, introspection or
 * revocation endpoint) with 429 before any password is checked when its account is backing off after repeated
 * failures from its source address, or from anywhere (unless the address is one the account signed in from
 * before), or its source address or account has spent its budget (each known-good address of an account has a
 * budget of its own). Runs ahead of Spring Security, so a refused
 * attempt costs no password hash and changes nothing but its own audit row.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
public class SignInThrottle extends OncePerRequestFilter {

    static final String LOGIN = "/login";

    public static final Set<String> CLIENT_ENDPOINTS = Set.of("/oauth2/token", "/oauth2/introspect", "/oauth2/revoke");

    /** Longer names are cut, so a giant "username" cannot bloat the buckets. */
    private static final int MAX_PRINCIPAL = 200;

    private final RateLimiter limiter;

    private final SignInFailures failures;

    private final SignInAudit audit;

    private final RateLimitProperties limits;

    private final JsonMapper json;

    SignInThrottle(
            RateLimiter limiter,
            SignInFailures failures,
            SignInAudit audit,
            RateLimitProperties limits,
            JsonMapper json) {
        this.limiter = limiter;
        this.failures = failures;
        this.audit = audit;
        this.limits = limits;
        this.json = json;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI();
        return !"POST".equals(request.getMethod()) || !(LOGIN.equals(path) || CLIENT_ENDPOINTS.contains(path));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        SignInChannel channel = LOGIN.equals(request.getRequestURI()) ? SignInChannel.USER : SignInChannel.CLIENT;
        if (channel == SignInChannel.CLIENT && !presentsSecret(request)) {
            // a public client (the web UI's PKCE code exchange, made by the server itself) has no secret to guess
            chain.doFilter(request, response);
            return;
        }
        String principal = principal(channel, request);
        Optional<Duration> wait = Optional.empty();
        String reason = null;
        boolean knownGood = false;
        if (principal != null) {
            Optional<SignInFailures.Refusal> refused = failures.refusedFor(channel, principal, request.getRemoteAddr());
            wait = refused.map(SignInFailures.Refusal::delay);
            reason = refused.map(SignInFailures.Refusal::reason).orElse(null);
            knownGood = refused.isEmpty() && failures.known(channel, principal, request.getRemoteAddr());
        }
        if (wait.isEmpty()) {
            wait = limiter.tryAcquire(
                    channel.key() + "-address",
                    channel == SignInChannel.USER ? limits.loginPerAddress() : limits.tokenPerAddress(),
                    request.getRemoteAddr());
            reason = "address_rate_limit";
        }
        // the account's budget, per address it is tried from; and across addresses, which only addresses it never
        // signed in from spend and are refused by: strangers elsewhere cannot spend an owner's known address's budget
        if (wait.isEmpty() && principal != null) {
            RateLimitProperties.Limit budget =
                    channel == SignInChannel.USER ? limits.loginPerUsername() : limits.tokenPerClient();
            wait = limiter.tryAcquire(
                    channel.key() + "-account", budget, SignInFailures.fromAddress(principal, request.getRemoteAddr()));
            if (wait.isEmpty() && !knownGood) {
                wait = limiter.tryAcquire(channel.key() + "-account", budget, principal);
            }
            reason = "account_rate_limit";
        }
        if (wait.isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        audit.throttled(channel, principal, request, Objects.requireNonNull(reason, "a wait has its reason"));
        if (channel == SignInChannel.USER) {
            TooManyRequests.page(response, wait.get());
        } else {
            TooManyRequests.problem(json, response, wait.get(), "Too many sign-in attempts");
        }
    }

    /**
     * The account an attempt names: the username of the form, in the one form the password check looks it up by
     * ({@link Usernames#normalize}), or the client id (Basic or in the body), which is looked up as it is.
     */
    public static @Nullable String principal(SignInChannel channel, HttpServletRequest request) {
        String typed = channel == SignInChannel.USER ? request.getParameter("username") : clientId(request);
        String name = typed != null && channel == SignInChannel.USER ? Usernames.normalize(typed) : typed;
        if (name == null || name.isBlank()) {
            return null;
        }
        return storable(name.length() > MAX_PRINCIPAL ? name.substring(0, MAX_PRINCIPAL) : name);
    }

    /**
     * The name as PostgreSQL can store it (a bucket key, an audit row): a NUL or a lone surrogate, which no
     * account's name holds, becomes U+FFFD, so such an attempt is counted and refused like any wrong name
     * instead of failing in the database.
     */
    private static String storable(String name) {
        StringBuilder text = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < name.length() && Character.isLowSurrogate(name.charAt(i + 1))) {
                text.append(c).append(name.charAt(++i));
            } else {
                text.append(c == 0 || Character.isSurrogate(c) ? '\uFFFD' : c);
            }
        }
        return text.toString();
    }

    private static boolean presentsSecret(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        return (header != null && header.regionMatches(true, 0, "Basic ", 0, 6))
                || request.getParameter("client_secret") != null;
    }

    private static @Nullable String clientId(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, "Basic ", 0, 6)) {
            try {
                String credentials = new String(
                        Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
                int colon = credentials.indexOf(':');
                if (colon > 0) {
                    // RFC 6749 2.3.1: the client id is form-encoded before it goes into the Basic credentials
                    return URLDecoder.decode(credentials.substring(0, colon), StandardCharsets.UTF_8);
                }
            } catch (IllegalArgumentException ex) {
                return null;
            }
            return null;
        }
        return request.getParameter("client_id");
    }
}
