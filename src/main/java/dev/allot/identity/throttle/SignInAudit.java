package dev.allot.identity.throttle;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.shared.LogText;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.DisabledException;
import org.springframework.security.authentication.LockedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Every sign-in attempt, whatever its outcome, leaves an audit row ({@code sign_in.succeeded},
 * {@code sign_in.failed}, {@code sign_in.throttled}) and a {@code key=value} line on the {@code allot.security}
 * logger, both with the source address; a failure also counts towards the account's back-off, a success clears
 * it. Only the account's name is kept, never the password or secret that was tried.
 */
@Component
public class SignInAudit {

    private static final Logger log = LoggerFactory.getLogger("allot.security");

    private final AuditLog audit;

    private final SignInFailures failures;

    private final TransactionTemplate transaction;

    SignInAudit(AuditLog audit, SignInFailures failures, PlatformTransactionManager transactions) {
        this.audit = audit;
        this.failures = failures;
        this.transaction = new TransactionTemplate(transactions);
        // the attempt is recorded whatever becomes of the request it belongs to
        this.transaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    public void succeeded(SignInChannel channel, String principal, HttpServletRequest request) {
        transaction.executeWithoutResult(status -> {
            failures.succeeded(channel, principal, request.getRemoteAddr());
            record(channel, "succeeded", principal, request, null);
        });
        log.info(line(channel, "succeeded", principal, request, null));
    }

    public void failed(
            SignInChannel channel,
            @Nullable String principal,
            HttpServletRequest request,
            AuthenticationException failure) {
        String reason = reason(failure);
        transaction.executeWithoutResult(status -> {
            if (principal != null) {
                failures.failed(channel, principal, request.getRemoteAddr());
            }
            record(channel, "failed", principal, request, reason);
        });
        log.warn(line(channel, "failed", principal, request, reason));
    }

    void throttled(SignInChannel channel, @Nullable String principal, HttpServletRequest request, String reason) {
        transaction.executeWithoutResult(status -> record(channel, "throttled", principal, request, reason));
        log.warn(line(channel, "throttled", principal, request, reason));
    }

    private void record(
            SignInChannel channel,
            String outcome,
            @Nullable String principal,
            HttpServletRequest request,
            @Nullable String reason) {
        Map<String, Object> attempt = new LinkedHashMap<>();
        attempt.put("channel", channel.key());
        attempt.put("outcome", outcome);
        attempt.put("principal", principal);
        attempt.put("sourceAddress", request.getRemoteAddr());
        attempt.put("path", request.getRequestURI());
        attempt.put("reason", reason);
        // the actor is the account only once it proved who it is
        String actor = "succeeded".equals(outcome) && principal != null ? principal : "anonymous";
        audit.recordAs(
                actor,
                new AuditRecord(
                        null, "sign_in." + outcome, channel.key(), principal != null ? principal : "", null, attempt));
    }

    private static String line(
            SignInChannel channel,
            String outcome,
            @Nullable String principal,
            HttpServletRequest request,
            @Nullable String reason) {
        return "event=sign_in outcome=" + outcome + " channel=" + channel.key() + " principal=" + value(principal)
                + " address=" + value(request.getRemoteAddr()) + " path=" + value(request.getRequestURI())
                + " reason=" + value(reason);
    }

    /** A value as one token of the line: whatever a caller typed cannot forge another key or another line. */
    static String value(@Nullable String value) {
        if (value == null || value.isEmpty()) {
            return "-";
        }
        StringBuilder quoted = new StringBuilder();
        boolean plain = true;
        for (char c : value.toCharArray()) {
            if (LogText.breaksLine(c)) {
                quoted.append('?');
                continue;
            }
            plain &= !Character.isWhitespace(c) && c != '"' && c != '=' && c != '\\';
            if (c == '"' || c == '\\') {
                quoted.append('\\');
            }
            quoted.append(c);
        }
        return plain ? quoted.toString() : "\"" + quoted + "\"";
    }

    static String reason(AuthenticationException failure) {
        if (failure instanceof OAuth2AuthenticationException oauth2) {
            return oauth2.getError().getErrorCode();
        }
        if (failure instanceof BadCredentialsException) {
            return "bad_credentials";
        }
        if (failure instanceof DisabledException) {
            return "disabled";
        }
        if (failure instanceof LockedException) {
            return "locked";
        }
        return failure.getClass()
                .getSimpleName()
                .replace("Exception", "")
                .replaceAll("([a-z])([A-Z])", "$1_$2")
                .toLowerCase();
    }
}
