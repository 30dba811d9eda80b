package dev.allot.shared.web;

import dev.allot.shared.AllotException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * A request that failed because PostgreSQL could not be reached, or answered as a standby, is not a bug of ours
 * but a few seconds of failover (Patroni promotes the standby, the pool reconnects to the new primary): it is
 * answered {@code 503 database_unavailable} with {@code Retry-After}, so a client retries instead of reporting a
 * 500, and it is logged as one warning line, not a stack trace. A connection lost during a commit leaves the outcome
 * unknown, so the answer does not claim that nothing was written: a create retried with the same
 * {@code Idempotency-Key} is answered once, and a booking's allocations cannot be taken twice.
 * <p>
 * Controllers' failures reach {@link ApiProblems} and {@link UiErrors}, which ask {@link #causedBy}; failures in the
 * filters before them (the rate limiter, the idempotency claim, the session) are caught here.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
class DatabaseUnavailable extends OncePerRequestFilter {

    static final String CODE = "database_unavailable";

    /** Patroni's leader key lives 10 s; half of that is a fair first wait. */
    static final long RETRY_AFTER_SECONDS = 5;

    /**
     * PostgreSQL's SQLSTATEs for a server going away or refusing work for now: connection exceptions (class 08),
     * admin and crash shutdown, "cannot connect now" while starting, and a write sent to a standby that has not yet
     * noticed it is no longer the primary's.
     */
    private static final Set<String> STATES = Set.of("57P01", "57P02", "57P03", "25006");

    /**
     * What Hikari throws, without a SQLSTATE, when a connection it evicted after a fatal error is used again (a
     * rollback after the failed statement, say), which hides the connection failure that caused it.
     */
    private static final String HIKARI_CLOSED = "Connection is closed";

    private static final Logger log = LoggerFactory.getLogger(DatabaseUnavailable.class);

    private final JsonMapper json;

    DatabaseUnavailable(JsonMapper json) {
        this.json = json;
    }

    /** Whether {@code failure} comes from the database being unreachable rather than from the request. */
    static boolean causedBy(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof DataAccessResourceFailureException
                    || cause instanceof CannotCreateTransactionException
                    || cause instanceof SQLTransientConnectionException
                    || cause instanceof SQLNonTransientConnectionException) {
                return true;
            }
            if (cause instanceof SQLException sql
                    && (sql.getSQLState() != null
                            ? sql.getSQLState().startsWith("08") || STATES.contains(sql.getSQLState())
                            : HIKARI_CLOSED.equals(sql.getMessage()))) {
                return true;
            }
            // a rollback that failed on the dead connection hides the failure that started it
            if (cause instanceof TransactionSystemException rollback
                    && rollback.getApplicationException() != null
                    && causedBy(rollback.getApplicationException())) {
                return true;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }

    static AllotException problem() {
        return new AllotException(
                        503,
                        CODE,
                        "Database unavailable",
                        "The database cannot be reached for a moment (a failover, say); retry in " + RETRY_AFTER_SECONDS
                                + " s (with the same Idempotency-Key, a create is not made twice)")
                .with("retryAfterSeconds", RETRY_AFTER_SECONDS);
    }

    static void logged(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        log.warn(
                "Answered 503: the database is unavailable ({}: {})",
                root.getClass().getSimpleName(),
                root.getMessage());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            chain.doFilter(request, response);
        } catch (ServletException | RuntimeException ex) {
            if (!causedBy(ex) || response.isCommitted()) {
                throw ex;
            }
            logged(ex);
            response.resetBuffer();
            response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(RETRY_AFTER_SECONDS));
            if (request.getRequestURI().startsWith("/api/")) {
                ProblemResponses.write(response, problem(), json);
            } else {
                response.setStatus(503);
                response.setContentType("text/html;charset=UTF-8");
                response.getOutputStream()
                        .write("""
						<!DOCTYPE html>
						<html lang="en"><head><meta charset="utf-8"><title>Back in a moment - Allot</title></head>
						<body><main><h1>Back in a moment</h1>
						<p role="alert">Allot cannot reach its database right now. Please try again in %d seconds.</p>
						</main></body></html>
						""".formatted(RETRY_AFTER_SECONDS).getBytes(StandardCharsets.UTF_8));
            }
        }
    }
}
