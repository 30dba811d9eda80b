package dev.allot.identity.keys;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.shared.AllotException;
import dev.allot.shared.security.Caller;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** A platform admin replaces the key that signs tokens (after a suspected leak, or on a schedule). */
@Service
public class SigningKeyRotation {

    /** The new key signs from {@code signsFrom}; the previous ones verify until they retire. */
    public record SigningKeyRotated(String kid, Instant signsFrom, List<RetiringSigningKey> previous) {}

    public record RetiringSigningKey(String kid, Instant retiresAt) {}

    /** The key stopped verifying; {@code signingKid} signs. */
    public record SigningKeyRetired(String kid, String signingKid) {}

    private final SigningKeys keys;

    private final AuditLog audit;

    SigningKeyRotation(SigningKeys keys, AuditLog audit) {
        this.keys = keys;
        this.audit = audit;
    }

    @Transactional
    public SigningKeyRotated rotate(Caller caller) {
        caller.requirePlatformAdmin();
        SigningKeys.Rotation rotation = keys.rotate();
        var previous = rotation.previous().stream()
                .map(key -> new RetiringSigningKey(key.kid(), key.retiresAt()))
                .toList();
        // key ids only: nothing of a key itself ever reaches the audit trail
        audit.record(new AuditRecord(
                null,
                "signing_key.rotated",
                "signing_key",
                rotation.kid(),
                Map.of("signing", previous.stream().map(RetiringSigningKey::kid).toList()),
                Map.of("signing", rotation.kid(), "retiring", previous)));
        return new SigningKeyRotated(rotation.kid(), rotation.signsFrom(), previous);
    }

    /** A key known to be compromised stops verifying at once (tokens it signed are refused from now). */
    @Transactional
    public SigningKeyRetired retire(Caller caller, String kid) {
        caller.requirePlatformAdmin();
        String signing = keys.retire(kid).orElseThrow(() -> AllotException.notFound("Signing key " + kid));
        audit.record(new AuditRecord(
                null, "signing_key.retired", "signing_key", kid, Map.of("kid", kid), Map.of("signing", signing)));
        return new SigningKeyRetired(kid, signing);
    }
}
