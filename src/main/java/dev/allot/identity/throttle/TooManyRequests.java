package dev.allot.identity.throttle;

import dev.allot.shared.AllotException;
import dev.allot.shared.web.ProblemResponses;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.springframework.http.HttpHeaders;
import tools.jackson.databind.json.JsonMapper;

/** The 429 answers: a {@code rate_limited} problem for machines, a short page for people; both say when to retry. */
final class TooManyRequests {

    static final String CODE = "rate_limited";

    private TooManyRequests() {}

    static void problem(JsonMapper json, HttpServletResponse response, Duration wait, String detail)
            throws IOException {
        long seconds = RateLimiter.retryAfterSeconds(wait);
        response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
        ProblemResponses.write(
                response,
                new AllotException(429, CODE, "Too many requests", detail + "; retry in " + seconds + " s")
                        .with("retryAfterSeconds", seconds),
                json);
    }

    static void page(HttpServletResponse response, Duration wait) throws IOException {
        long seconds = RateLimiter.retryAfterSeconds(wait);
        response.setStatus(429);
        response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
        response.setContentType("text/html;charset=UTF-8");
        response.getOutputStream().write("""
				<!DOCTYPE html>
				<html lang="en"><head><meta charset="utf-8"><title>Too many sign-in attempts - Allot</title></head>
				<body><main><h1>Too many sign-in attempts</h1>
				<p id="login-throttled" role="alert">Please wait %d seconds before you try to sign in again.</p>
				<p><a href="/login">Back to sign-in</a></p></main></body></html>
				""".formatted(seconds).getBytes(StandardCharsets.UTF_8));
    }
}
