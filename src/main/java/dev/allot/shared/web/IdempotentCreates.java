package dev.allot.shared.web;

import dev.allot.shared.AllotException;
import dev.allot.shared.IdempotencyKey;
import dev.allot.shared.InvalidInputException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.ContentCachingResponseWrapper;
import org.springframework.web.util.ServletRequestPathUtils;

/**
 * {@code Idempotency-Key} on every API POST that creates, by the rules of {@link IdempotencyKey}. The first request
 * with a key (per caller) claims it; its answer ({@code 201 Created}, or {@code 202 Accepted} for work queued) is kept
 * for {@link IdempotentRequests#RETENTION} and a retry with the same key and the same body gets that answer again,
 * marked {@code Idempotent-Replayed: true}, without running twice. The same key with another body is refused (422
 * {@code idempotency_key_reused}); a retry racing its still-running twin waits up to {@link #TWIN_WAIT} for the twin's
 * answer and gets it, or 409 {@code idempotency_key_in_use} if the twin is still running then. A request that created nothing (4xx, 5xx) keeps nothing, so it may be corrected and sent
 * again with its key.
 * <p>
 * The claimed key reaches the endpoint as an {@link IdempotencyKey} parameter ({@link IdempotencyKeyArguments}), for
 * creates that also keep it with what they create, in the same transaction (a health check). An endpoint that answers
 * retries from its own row ({@link KeepsItsIdempotencyKey}: a booking) gets the checked key and nothing is claimed.
 */
@Component
@Order(Ordered.LOWEST_PRECEDENCE - 100)
class IdempotentCreates extends OncePerRequestFilter {

    /** How long a request waits for its running twin's answer before it is told to retry (409). */
    static final Duration TWIN_WAIT = Duration.ofSeconds(10);

    private final IdempotentRequests requests;

    private final RequestMappingHandlerMapping handlers;

    private final HandlerExceptionResolver problems;

    private final BodySizeLimit bodySizeLimit;

    IdempotentCreates(
            IdempotentRequests requests,
            @Qualifier("requestMappingHandlerMapping") RequestMappingHandlerMapping handlers,
            @Qualifier("handlerExceptionResolver") HandlerExceptionResolver problems,
            BodySizeLimit bodySizeLimit) {
        this.requests = requests;
        this.handlers = handlers;
        this.problems = problems;
        this.bodySizeLimit = bodySizeLimit;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !"POST".equals(request.getMethod())
                || request.getHeader(IdempotencyKey.HEADER) == null
                || !request.getRequestURI().startsWith("/api/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication caller = SecurityContextHolder.getContext().getAuthentication();
        HandlerMethod handler = caller == null || !caller.isAuthenticated() ? null : handlerOf(request);
        if (caller == null || handler == null) {
            chain.doFilter(request, response);
            return;
        }
        // a chunked body declares no length, so the limit is checked again as it is read
        long maxBytes = bodySizeLimit.maxBytes();
        byte[] body = request.getInputStream().readNBytes((int) Math.min(maxBytes + 1, Integer.MAX_VALUE));
        if (body.length > maxBytes) {
            refuse(request, response, handler, bodySizeLimit.tooLarge());
            return;
        }
        IdempotencyKey key;
        try {
            key = IdempotencyKey.of(
                    caller.getName(),
                    request.getHeader(IdempotencyKey.HEADER),
                    request.getRequestURI(),
                    JsonFingerprint.of(body));
        } catch (InvalidInputException invalid) {
            refuse(request, response, handler, invalid);
            return;
        }
        if (handler.hasMethodAnnotation(KeepsItsIdempotencyKey.class)) {
            BufferedRequest buffered = new BufferedRequest(request, body);
            buffered.setAttribute(IdempotencyKey.class.getName(), key);
            chain.doFilter(buffered, response);
            return;
        }
        Optional<IdempotentRequests.Held> held = claimOrAwaitTwin(caller.getName(), key);
        if (held.isPresent()) {
            answerFrom(held.get(), key, request, response, handler);
            return;
        }
        createOnce(caller.getName(), key, request, body, response, chain);
    }

    /**
     * Runs the request that claimed the key, and remembers its answer when it created something (201 or 202); lets
     * the key go otherwise.
     */
    private void createOnce(
            String caller,
            IdempotencyKey key,
            HttpServletRequest request,
            byte[] body,
            HttpServletResponse response,
            FilterChain chain)
            throws ServletException, IOException {
        ContentCachingResponseWrapper answer = new ContentCachingResponseWrapper(response);
        boolean created = false;
        try {
            BufferedRequest buffered = new BufferedRequest(request, body);
            buffered.setAttribute(IdempotencyKey.class.getName(), key);
            chain.doFilter(buffered, answer);
            created = answer.getStatus() == HttpServletResponse.SC_CREATED
                    || answer.getStatus() == HttpServletResponse.SC_ACCEPTED;
            if (created) {
                // an answer not to be stored anywhere (it carries a secret shown once) is remembered without its body
                String cacheControl = answer.getHeader("Cache-Control");
                boolean secret = cacheControl != null && cacheControl.contains("no-store");
                requests.complete(
                        caller,
                        key.key(),
                        new IdempotentRequests.Answer(
                                answer.getStatus(),
                                answer.getContentType(),
                                answer.getHeader("Location"),
                                answer.getHeader("ETag"),
                                secret ? null : answer.getContentAsByteArray()));
            }
        } finally {
            if (!created) {
                requests.release(caller, key.key());
            }
            answer.copyBodyToResponse();
        }
    }

    /**
     * Claims the key; while a twin of this request holds it and is still running, waits a little for the twin's
     * answer (a pipeline's retry after a client timeout often overtakes its own first try), then claims again: the
     * twin may have finished, or created nothing and let the key go. Empty when this request claimed the key.
     */
    private Optional<IdempotentRequests.Held> claimOrAwaitTwin(String caller, IdempotencyKey key) {
        long deadline = System.nanoTime() + TWIN_WAIT.toNanos();
        long pause = 10;
        while (true) {
            Optional<IdempotentRequests.Held> held = requests.claim(caller, key.key(), key.requestHash());
            boolean twinRunning = held.isPresent()
                    && held.get() instanceof IdempotentRequests.Running running
                    && running.requestHash().equals(key.requestHash());
            if (!twinRunning || System.nanoTime() > deadline) {
                return held;
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return held;
            }
            pause = Math.min(pause * 2, 200);
        }
    }

    private void answerFrom(
            IdempotentRequests.Held held,
            IdempotencyKey key,
            HttpServletRequest request,
            HttpServletResponse response,
            HandlerMethod handler)
            throws IOException {
        if (!held.requestHash().equals(key.requestHash())) {
            refuse(request, response, handler, IdempotencyKey.reused(key.key()));
            return;
        }
        if (!(held instanceof IdempotentRequests.Done done)) {
            refuse(request, response, handler, IdempotencyKey.inUse(key.key()));
            return;
        }
        IdempotentRequests.Answer answer = done.answer();
        if (answer.body() == null) {
            refuse(
                    request,
                    response,
                    handler,
                    AllotException.conflict(
                                    "idempotency_key_used",
                                    "The request with Idempotency-Key " + key.key() + " created "
                                            + answer.location()
                                            + "; its answer held a secret that is shown only once: revoke what it "
                                            + "created and create another")
                            .with("location", String.valueOf(answer.location())));
            return;
        }
        response.setStatus(answer.status());
        if (answer.contentType() != null) {
            response.setContentType(answer.contentType());
        }
        if (answer.location() != null) {
            response.setHeader("Location", answer.location());
        }
        if (answer.etag() != null) {
            response.setHeader("ETag", answer.etag());
        }
        response.setHeader("Idempotent-Replayed", "true");
        response.setContentLength(answer.body().length);
        response.getOutputStream().write(answer.body());
    }

    /** Answers a problem as the endpoint would have (its advice, its metrics). */
    private void refuse(
            HttpServletRequest request, HttpServletResponse response, HandlerMethod handler, RuntimeException problem) {
        problems.resolveException(request, response, handler, problem);
    }

    /** The endpoint that will answer; null when none will (404, 405), which the dispatcher answers as usual. */
    private @Nullable HandlerMethod handlerOf(HttpServletRequest request) {
        boolean parsed = ServletRequestPathUtils.hasParsedRequestPath(request);
        if (!parsed) {
            ServletRequestPathUtils.parseAndCache(request);
        }
        try {
            HandlerExecutionChain chain = handlers.getHandler(request);
            return chain != null && chain.getHandler() instanceof HandlerMethod method ? method : null;
        } catch (Exception ex) {
            return null;
        } finally {
            if (!parsed) {
                ServletRequestPathUtils.clearParsedRequestPath(request);
            }
        }
    }

    /** The request with its body read once into memory, to be fingerprinted and then read again by the endpoint. */
    private static final class BufferedRequest extends HttpServletRequestWrapper {

        private final byte[] body;

        BufferedRequest(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream bytes = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return bytes.read();
                }

                @Override
                public int read(byte[] buffer, int offset, int length) {
                    return bytes.read(buffer, offset, length);
                }

                @Override
                public boolean isFinished() {
                    return bytes.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(@Nullable ReadListener listener) {
                    throw new UnsupportedOperationException();
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
        }
    }
}
