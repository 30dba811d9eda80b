package dev.allot.tenancy;

import dev.allot.shared.AllotException;
import dev.allot.tenancy.status.TenantStatus;
import java.time.Instant;
import java.util.UUID;

/** A team sharing the fleet. {@code version} is its ETag. */
public record Tenant(UUID id, String slug, String displayName, TenantStatus status, long version, Instant createdAt) {

    public String etag() {
        return "\"" + version + "\"";
    }

    public boolean isActive() {
        return status == TenantStatus.ACTIVE;
    }

    /** Refuses any change on behalf of a suspended tenant. */
    public void requireActive() {
        if (!isActive()) {
            throw AllotException.tenantSuspended(slug);
        }
    }

    Tenant with(String newDisplayName, TenantStatus newStatus) {
        return new Tenant(id, slug, newDisplayName, newStatus, version + 1, createdAt);
    }
}
