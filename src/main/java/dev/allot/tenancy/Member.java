package dev.allot.tenancy;

import dev.allot.shared.security.TenantRole;
import java.time.Instant;

/** A person (or identity of an external issuer) in a tenant, named by the subject of their identity. */
public record Member(String username, TenantRole role, Instant addedAt) {}
