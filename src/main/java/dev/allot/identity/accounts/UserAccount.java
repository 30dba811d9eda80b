package dev.allot.identity.accounts;

import dev.allot.shared.security.PlatformRole;
import java.util.Set;
import java.util.UUID;

/** A person who signs in to Allot's own issuer. */
public record UserAccount(
        UUID id,
        String username,
        String displayName,
        String passwordHash,
        Set<PlatformRole> platformRoles,
        boolean enabled) {}
