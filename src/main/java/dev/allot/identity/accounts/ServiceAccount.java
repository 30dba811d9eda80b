package dev.allot.identity.accounts;

import dev.allot.shared.security.ProjectRole;
import dev.allot.shared.security.TenantRole;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A tenant's OAuth2 client for CI. Its secret is shown once, at creation, and stored only as a bcrypt hash. With a
 * {@code project} it is scoped to that project: it acts there with {@link #projectRole()} and sees nothing else.
 */
public record ServiceAccount(
        UUID id,
        String tenant,
        String name,
        String clientId,
        TenantRole role,
        String createdBy,
        Instant createdAt,
        @Nullable Instant expiresAt,
        @Nullable Instant revokedAt,
        @Nullable String project) {

    /** The role a project-scoped account holds in its project: MEMBER books there, VIEWER reads. */
    public ProjectRole projectRole() {
        return role == TenantRole.VIEWER ? ProjectRole.PROJECT_VIEWER : ProjectRole.PROJECT_MEMBER;
    }

    public boolean isUsableAt(Instant now) {
        return revokedAt == null && (expiresAt == null || expiresAt.isAfter(now));
    }

    ServiceAccount revokedAt(Instant when) {
        return new ServiceAccount(id, tenant, name, clientId, role, createdBy, createdAt, expiresAt, when, project);
    }
}
