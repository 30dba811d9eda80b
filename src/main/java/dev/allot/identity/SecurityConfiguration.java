package dev.allot.identity;

import dev.allot.identity.settings.SecurityProperties;
import dev.allot.identity.signin.EndedSessions;
import dev.allot.identity.signin.ExternalIdentities;
import dev.allot.identity.signin.FailedSignInPage;
import dev.allot.identity.signin.LoopbackSignIn;
import dev.allot.identity.signin.TokenlessSessions;
import dev.allot.identity.signin.UiClientRegistration;
import dev.allot.identity.throttle.ApiCallCounts;
import dev.allot.identity.throttle.ApiRateLimit;
import dev.allot.identity.throttle.SignInAudit;
import dev.allot.identity.throttle.SignInChannel;
import dev.allot.identity.throttle.SignInThrottle;
import dev.allot.identity.tokens.Issuer;
import dev.allot.shared.AllotException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.server.ServletServerHttpResponse;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.oauth2.server.authorization.OAuth2AuthorizationServerConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.http.converter.OAuth2ErrorHttpMessageConverter;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.authentication.SavedRequestAwareAuthenticationSuccessHandler;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter;
import org.springframework.security.web.savedrequest.HttpSessionRequestCache;
import org.springframework.security.web.util.matcher.AnyRequestMatcher;
import org.springframework.security.web.util.matcher.MediaTypeRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Four filter chains: the authorization server's endpoints; the metrics, for a scraper's token; {@code /api/**}
 * as a resource server (bearer tokens, or the browser session with CSRF); and the UI, which signs in through
 * OIDC.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; "
            + "style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
            + "form-action 'self'";

    private static final DefaultBearerTokenResolver BEARER_TOKENS = new DefaultBearerTokenResolver();

    /** The endpoints a client authenticates at with its own credentials. */
    private static final RequestMatcher CLIENT_ENDPOINTS =
            request -> SignInThrottle.CLIENT_ENDPOINTS.contains(request.getRequestURI());

    @Bean
    @Order(1)
    SecurityFilterChain authorizationServerChain(HttpSecurity http, SignInAudit signIns) {
        OAuth2AuthorizationServerConfigurer authorizationServer = new OAuth2AuthorizationServerConfigurer();
        http.securityMatcher(authorizationServer.getEndpointsMatcher())
                .with(
                        authorizationServer,
                        server -> server.oidc(Customizer.withDefaults())
                                // every client authentication is audited; the handlers do what the defaults do besides
                                .clientAuthentication(clients -> clients.authenticationSuccessHandler(
                                                (request, response, client) -> {
                                                    signIns.succeeded(SignInChannel.CLIENT, client.getName(), request);
                                                    var context = SecurityContextHolder.createEmptyContext();
                                                    context.setAuthentication(client);
                                                    SecurityContextHolder.setContext(context);
                                                })
                                        .errorResponseHandler((request, response, failure) -> {
                                            signIns.failed(
                                                    SignInChannel.CLIENT,
                                                    SignInThrottle.principal(SignInChannel.CLIENT, request),
                                                    request,
                                                    failure);
                                            clientAuthenticationFailed(response, failure);
                                        })))
                .authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
                .requestCache(cache -> cache.requestCache(authorizeRequests()))
                .csrf(csrf -> csrf.ignoringRequestMatchers(authorizationServer.getEndpointsMatcher()))
                // a client endpoint called without client credentials is a client that failed to authenticate: 401
                // invalid_client, as RFC 6749 says, not a browser's sign-in page (and no session to remember it by)
                .exceptionHandling(exceptions -> exceptions
                        .defaultAuthenticationEntryPointFor(
                                (request, response, ex) -> clientAuthenticationFailed(
                                        response, new OAuth2AuthenticationException(OAuth2ErrorCodes.INVALID_CLIENT)),
                                CLIENT_ENDPOINTS)
                        .defaultAuthenticationEntryPointFor(
                                signIn("/login"), new MediaTypeRequestMatcher(MediaType.TEXT_HTML)));
        headers(http);
        return http.build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain metricsChain(HttpSecurity http, SecurityProperties properties, JsonMapper json) {
        http.securityMatcher("/actuator/prometheus", "/actuator/prometheus/**")
                .authorizeHttpRequests(requests ->
                        requests.anyRequest().access(new MetricsScrapeAccess(properties.metricsTokenSha256())))
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .requestCache(cache -> cache.disable())
                .csrf(csrf -> csrf.disable())
                .exceptionHandling(exceptions -> exceptions
                        .authenticationEntryPoint((request, response, ex) -> problem(
                                json,
                                response,
                                401,
                                "unauthenticated",
                                "Unauthenticated",
                                "Send the scrape token as a bearer token"))
                        .accessDeniedHandler((request, response, ex) -> problem(
                                json,
                                response,
                                401,
                                "unauthenticated",
                                "Unauthenticated",
                                "Send the scrape token as a bearer token")));
        headers(http);
        return http.build();
    }

    @Bean
    @Order(3)
    SecurityFilterChain apiChain(HttpSecurity http, Callers callers, JsonMapper json, ApiCallCounts apiCalls) {
        http.securityMatcher("/api/**")
                .authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
                .oauth2ResourceServer(resourceServer -> resourceServer
                        .bearerTokenResolver(SecurityConfiguration::bearerToken)
                        .jwt(jwt -> jwt.jwtAuthenticationConverter(
                                token -> new CallerAuthentication(token, callers.forToken(token))))
                        .authenticationEntryPoint((request, response, ex) ->
                                problem(json, response, 401, "unauthenticated", "Unauthenticated", ex.getMessage()))
                        .accessDeniedHandler((request, response, ex) ->
                                problem(json, response, 403, "forbidden", "Forbidden", ex.getMessage())))
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.NEVER))
                .requestCache(cache -> cache.disable())
                // A browser does not send a bearer token on its own: CSRF matters for any call that carries a session
                // cookie, whatever else it sends (a stray Authorization header must not switch the check off).
                .csrf(csrf -> csrf.ignoringRequestMatchers(SecurityConfiguration::withoutSession))
                .exceptionHandling(exceptions -> exceptions
                        .authenticationEntryPoint((request, response, ex) -> problem(
                                json,
                                response,
                                401,
                                "unauthenticated",
                                "Unauthenticated",
                                "Send a bearer token from POST /oauth2/token"))
                        .accessDeniedHandler((request, response, ex) ->
                                problem(json, response, 403, "forbidden", "Forbidden", ex.getMessage())))
                .addFilterAfter(new ApiRateLimit(apiCalls, json), AuthorizationFilter.class);
        headers(http);
        return http.build();
    }

    /** What the UI chain lets anyone open, signed in or not: the sign-in page, assets, health and the API's docs. */
    private static final String[] OPEN_TO_ALL = {
        "/login",
        "/webjars/**",
        "/css/**",
        "/js/**",
        "/favicon.ico",
        "/error",
        "/actuator/health/**",
        "/v3/api-docs",
        "/v3/api-docs/**",
        "/v3/api-docs.yaml",
        "/swagger-ui/**",
        "/swagger-ui.html",
        "/openapi.yaml"
    };

    @Bean
    @Order(4)
    SecurityFilterChain uiChain(
            HttpSecurity http, SecurityProperties properties, Callers callers, SignInAudit signIns, Issuer issuer) {
        var signedIn = new SavedRequestAwareAuthenticationSuccessHandler();
        var resumeAuthorize = new SavedRequestAwareAuthenticationSuccessHandler();
        resumeAuthorize.setRequestCache(authorizeRequests());
        var notSignedIn = new FailedSignInPage();
        http.authorizeHttpRequests(requests -> requests.requestMatchers(OPEN_TO_ALL)
                        .permitAll()
                        .anyRequest()
                        .authenticated())
                .formLogin(form -> form.loginPage("/login")
                        .permitAll()
                        .successHandler((request, response, user) -> {
                            signIns.succeeded(SignInChannel.USER, user.getName(), request);
                            resumeAuthorize.onAuthenticationSuccess(request, response, user);
                        })
                        .failureHandler((request, response, failure) -> {
                            signIns.failed(
                                    SignInChannel.USER,
                                    SignInThrottle.principal(SignInChannel.USER, request),
                                    request,
                                    failure);
                            notSignedIn.onAuthenticationFailure(request, response, failure);
                        }))
                .oauth2Login(oauth2 -> oauth2.loginPage("/login")
                        // through an external issuer, the sign-in happens there: recorded here when it comes back (with
                        // Allot's own issuer the login form above has recorded it already)
                        .successHandler((request, response, user) -> {
                            if (properties.issuerUri() != null) {
                                signIns.succeeded(SignInChannel.EXTERNAL, user.getName(), request);
                            }
                            signedIn.onAuthenticationSuccess(request, response, user);
                        })
                        .failureHandler((request, response, failure) -> {
                            if (properties.issuerUri() != null) {
                                signIns.failed(SignInChannel.EXTERNAL, null, request, failure);
                            }
                            notSignedIn.onAuthenticationFailure(request, response, failure);
                        })
                        .authorizedClientRepository(TokenlessSessions.authorizedClients())
                        .userInfoEndpoint(userInfo -> userInfo.oidcUserService(
                                TokenlessSessions.oidcUsers(user -> admitExternal(properties, callers, user)))))
                .exceptionHandling(exceptions -> exceptions
                        .defaultAuthenticationEntryPointFor(EndedSessions::unauthorized, EndedSessions.SCRIPTED)
                        .defaultAuthenticationEntryPointFor(
                                LoopbackSignIn.toPublicUrl(
                                        issuer, signIn("/oauth2/authorization/" + UiClientRegistration.ID)),
                                AnyRequestMatcher.INSTANCE)
                        .accessDeniedHandler(EndedSessions.deniedHandler()))
                .requestCache(cache -> cache.requestCache(EndedSessions.pagesOnly()))
                .logout(logout -> logout.logoutSuccessUrl("/login?logout"));
        headers(http);
        return http.build();
    }

    @Bean
    WebMvcConfigurer callerArguments(CallerArgumentResolver resolver) {
        return new WebMvcConfigurer() {
            @Override
            public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
                resolvers.add(resolver);
            }
        };
    }

    /**
     * The authorization request a sign-in interrupted, kept apart from the page the UI was asked for: both live in
     * the one session, and sharing the slot made the sign-in forget the page (it landed on the home page instead of
     * the form it left).
     */
    private static HttpSessionRequestCache authorizeRequests() {
        HttpSessionRequestCache cache = new HttpSessionRequestCache();
        cache.setSessionAttrName("ALLOT_SAVED_AUTHORIZATION_REQUEST");
        // only a browser's authorization request is worth resuming: saving any other (an anonymous POST to the
        // token endpoint) wrote a session row for each, about 2.5 KB kept 30 minutes
        cache.setRequestMatcher(request -> "/oauth2/authorize".equals(request.getRequestURI()));
        return cache;
    }

    /**
     * CSRF is skipped only for a call with no live session cookie whose credentials, if any, are a bearer token: what
     * a cross-site page can make a browser send is the cookie, never the header.
     */
    static boolean withoutSession(HttpServletRequest request) {
        if (request.isRequestedSessionIdValid()) {
            return false;
        }
        String authorization = request.getHeader("Authorization");
        return authorization == null || authorization.regionMatches(true, 0, "Bearer ", 0, 7);
    }

    /**
     * The bearer token of a call that rides on no session. A call with a session cookie is a session call,
     * whatever token it also carries: the resource server would otherwise exempt it from CSRF as a bearer call.
     */
    private static @Nullable String bearerToken(HttpServletRequest request) {
        return request.isRequestedSessionIdValid() ? null : BEARER_TOKENS.resolve(request);
    }

    /**
     * Links a user of an external issuer to its username at sign-in, so that a conflict (a username already
     * linked to another subject) fails the sign-in with its reason instead of leaving a session that is nobody.
     */
    private static void admitExternal(SecurityProperties properties, Callers callers, OidcUser user) {
        if (properties.issuerUri() == null) {
            return;
        }
        try {
            callers.externalUsername(user);
        } catch (ExternalIdentities.IdentityConflictException ex) {
            throw new OAuth2AuthenticationException(
                    new OAuth2Error("identity_conflict", ex.getMessage(), null), ex.getMessage());
        }
    }

    /**
     * Sends the browser to sign in with a relative {@code Location}: an absolute one would be built from the
     * request's {@code Host}, which the client chooses.
     */
    private static LoginUrlAuthenticationEntryPoint signIn(String url) {
        LoginUrlAuthenticationEntryPoint entryPoint = new LoginUrlAuthenticationEntryPoint(url);
        entryPoint.setFavorRelativeUris(true);
        return entryPoint;
    }

    /** As the client authentication filter answers by itself: 401 for a wrong client or secret, else 400. */
    private static void clientAuthenticationFailed(HttpServletResponse response, AuthenticationException failure)
            throws IOException {
        SecurityContextHolder.clearContext();
        OAuth2Error error = ((OAuth2AuthenticationException) failure).getError();
        ServletServerHttpResponse httpResponse = new ServletServerHttpResponse(response);
        httpResponse.setStatusCode(
                OAuth2ErrorCodes.INVALID_CLIENT.equals(error.getErrorCode())
                        ? HttpStatus.UNAUTHORIZED
                        : HttpStatus.BAD_REQUEST);
        new OAuth2ErrorHttpMessageConverter().write(error, null, httpResponse);
    }

    private static void headers(HttpSecurity http) {
        http.headers(headers -> headers.contentSecurityPolicy(csp -> csp.policyDirectives(CONTENT_SECURITY_POLICY))
                .referrerPolicy(referrer -> referrer.policy(ReferrerPolicyHeaderWriter.ReferrerPolicy.SAME_ORIGIN)));
    }

    private static void problem(
            JsonMapper json,
            HttpServletResponse response,
            int status,
            String code,
            String title,
            @Nullable String detail)
            throws IOException {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatusCode.valueOf(status), detail);
        problem.setType(URI.create(AllotException.TYPE_BASE + code));
        problem.setTitle(title);
        problem.setProperty("code", code);
        response.setStatus(status);
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        if (status == 401) {
            response.setHeader("WWW-Authenticate", "Bearer");
        }
        json.writeValue(response.getOutputStream(), problem);
    }
}
