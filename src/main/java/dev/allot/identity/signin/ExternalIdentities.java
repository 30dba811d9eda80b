package dev.allot.identity.signin;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Pins each user of an external issuer to one username by the issuer's stable subject ({@code iss} +
 * {@code sub}). Tenant memberships name usernames, and the username claim ({@code preferred_username} by
 * default) is one that some identity providers let users change: matched on it alone, anyone who renamed
 * themselves "alice" would hold alice's memberships. The first sign-in links the subject to the username it
 * claims; after that the claim is ignored, and a username linked to one subject is refused to every other.
 */
@Component
@Transactional
public class ExternalIdentities {

    private static final Pattern USERNAME = Pattern.compile("[a-z][a-z0-9._-]{1,39}");

    private final JdbcClient jdbc;

    private final AuditLog audit;

    ExternalIdentities(JdbcClient jdbc, AuditLog audit) {
        this.jdbc = jdbc;
        this.audit = audit;
    }

    /**
     * The username of this subject at this issuer, linking it on first sight to the one it claims.
     * @throws IdentityConflictException when it claims no usable username, or one already linked to another subject
     */
    public String username(String issuer, String subject, @Nullable String claimed) {
        Optional<String> linked = linked(issuer, subject);
        if (linked.isPresent()) {
            return linked.get();
        }
        String username = claimed == null ? "" : claimed.strip().toLowerCase(Locale.ROOT);
        if (!USERNAME.matcher(username).matches()) {
            throw new IdentityConflictException("The identity provider names no usable username for this account "
                    + "(2 to 40 of a-z, 0-9, '.', '_' and '-', starting with a letter)");
        }
        int inserted = jdbc.sql("""
				INSERT INTO external_identity (issuer, subject, username) VALUES (?, ?, ?)
				ON CONFLICT DO NOTHING
				""").params(issuer, subject, username).update();
        if (inserted == 1) {
            audit.record(AuditRecord.created(
                    null,
                    "external-identity",
                    username,
                    Map.of("issuer", issuer, "subject", subject, "username", username)));
            return username;
        }
        // Either this subject was linked a moment ago by a concurrent sign-in, or the username is someone else's.
        return linked(issuer, subject)
                .orElseThrow(() -> new IdentityConflictException(
                        "The username '" + username + "' already belongs to another account; ask a platform admin"));
    }

    private Optional<String> linked(String issuer, String subject) {
        return jdbc.sql("SELECT username FROM external_identity WHERE issuer = ? AND subject = ?")
                .params(issuer, subject)
                .query(String.class)
                .optional();
    }

    /** A sign-in that would take a username already linked to another subject, or that names none. */
    public static final class IdentityConflictException extends RuntimeException {

        IdentityConflictException(String message) {
            super(message);
        }
    }
}
