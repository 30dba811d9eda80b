package dev.allot.tenancy.invitations;

import dev.allot.shared.security.TenantRole;
import java.time.Instant;
import java.util.UUID;

/**
 * An invitation to join a tenant: a tenant admin's adding an existing user, which makes them a member only once they
 * accept it ({@code PENDING} until then, {@code EXPIRED} after {@code expiresAt}).
 */
public record Invitation(
        UUID id,
        String tenant,
        String username,
        TenantRole role,
        String invitedBy,
        Instant createdAt,
        Instant expiresAt,
        Status status) {

    public enum Status {
        PENDING,
        ACCEPTED,
        DECLINED,
        EXPIRED
    }

    public Invitation answered(Status answer) {
        return new Invitation(id, tenant, username, role, invitedBy, createdAt, expiresAt, answer);
    }
}
