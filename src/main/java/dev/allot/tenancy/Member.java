package dev.allot.tenancy;

import java.time.Instant;

import dev.allot.shared.security.TenantRole;

/** A person (or identity of an external issuer) in a tenant, named by the subject of their identity. */
public record Member(String username, TenantRole role, Instant addedAt) {
}
