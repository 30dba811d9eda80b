package dev.allot.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * When a request is worth sending again, and after how long: 429, 502, 503 and 504 answers and network failures,
 * at most {@code maxRetries} times, after the server's {@code Retry-After} when it sends one, else after an
 * exponential back-off with jitter (Stripe's SDKs do the same). Every request the CLI sends may be repeated: a
 * booking carries an idempotency key and its body is fixed before the first attempt.
 */
record Retries(int maxRetries, Duration firstDelay, Duration maxDelay, PrintWriter err) {

    static final Set<Integer> RETRIED = Set.of(429, 502, 503, 504);

    /** Retry-After beyond this is not waited for: the answer stands. */
    static final Duration LONGEST_RETRY_AFTER = Duration.ofMinutes(5);

    static boolean retried(int status) {
        return RETRIED.contains(status);
    }

    /** The pause before retry {@code attempt} (1, 2, ...) after a response; empty: do not retry. */
    Optional<Duration> after(int attempt, HttpResponse<?> response) {
        if (attempt > this.maxRetries || !retried(response.statusCode())) {
            return Optional.empty();
        }
        Optional<Duration> asked = retryAfter(response.headers());
        if (asked.isPresent() && asked.get().compareTo(LONGEST_RETRY_AFTER) > 0) {
            return Optional.empty();
        }
        return Optional.of(asked.orElseGet(() -> backoff(attempt)));
    }

    /** The pause before retry {@code attempt} after a network failure; empty: do not retry. */
    Optional<Duration> afterFailure(int attempt) {
        return attempt > this.maxRetries ? Optional.empty() : Optional.of(backoff(attempt));
    }

    /** Exponential, capped, with "equal jitter": between half the step and the step. */
    Duration backoff(int attempt) {
        long step = Math.min(this.maxDelay.toMillis(), this.firstDelay.toMillis() << Math.min(attempt - 1, 20));
        return Duration.ofMillis(step / 2 + ThreadLocalRandom.current().nextLong(step / 2 + 1));
    }

    /** {@code Retry-After} as seconds or an HTTP date (RFC 9110, 10.2.3). */
    static Optional<Duration> retryAfter(HttpHeaders headers) {
        Optional<String> value = headers.firstValue("Retry-After").map(String::strip);
        if (value.isEmpty() || value.get().isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Duration.ofSeconds(Math.max(0, Long.parseLong(value.get()))));
        } catch (NumberFormatException notSeconds) {
            try {
                ZonedDateTime at = ZonedDateTime.parse(value.get(), DateTimeFormatter.RFC_1123_DATE_TIME);
                Duration left = Duration.between(ZonedDateTime.now(at.getZone()), at);
                return Optional.of(left.isNegative() ? Duration.ZERO : left);
            } catch (RuntimeException unreadable) {
                return Optional.empty();
            }
        }
    }

    void announce(String why, int attempt, Duration pause) {
        this.err.printf(
                "allot: %s; retry %d of %d in %.1f s%n", why, attempt, this.maxRetries, pause.toMillis() / 1000.0);
        this.err.flush();
    }

    static void discard(HttpResponse<?> response) {
        if (response.body() instanceof InputStream body) {
            try (body) {
                // drained, so that its connection can serve the retry
                body.transferTo(OutputStream.nullOutputStream());
            } catch (IOException ignored) {
                // the connection is dropped instead of reused
            }
        }
    }
}
