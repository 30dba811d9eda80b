package dev.allot.identity;

import java.util.Set;
import java.util.UUID;

import dev.allot.shared.security.PlatformRole;

/** A person who signs in to Allot's own issuer. */
record UserAccount(UUID id, String username, String displayName, String passwordHash, Set<PlatformRole> platformRoles,
		boolean enabled) {
}
