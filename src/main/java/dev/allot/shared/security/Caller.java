package dev.allot.shared.security;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.allot.shared.AllotException;

/**
 * Who is calling, resolved on each request from the token or session and the current memberships
 * (so that a removed membership takes effect at once, not when the token expires).
 *
 * <p>Tenant checks answer as the API promises: a caller without access to a tenant learns nothing about it
 * (404, exactly as for a tenant that does not exist); a caller who may read but not change gets 403.
 */
public record Caller(String subject, String displayName, Kind kind, Set<PlatformRole> platformRoles,
		Map<String, TenantRole> tenants) {

	public enum Kind {

		USER, SERVICE_ACCOUNT

	}

	public Caller {
		platformRoles = Set.copyOf(platformRoles);
		tenants = Map.copyOf(tenants);
	}

	public boolean isPlatformAdmin() {
		return platformRoles.contains(PlatformRole.PLATFORM_ADMIN);
	}

	/** Platform admins and auditors read everything. */
	public boolean readsEverything() {
		return isPlatformAdmin() || platformRoles.contains(PlatformRole.AUDITOR);
	}

	public Optional<TenantRole> roleIn(String tenant) {
		return Optional.ofNullable(tenants.get(tenant));
	}

	public boolean canRead(String tenant) {
		return readsEverything() || tenants.containsKey(tenant);
	}

	/** Refuses with 404 a caller who may not see the tenant at all. */
	public void requireRead(String tenant) {
		if (!canRead(tenant)) {
			throw AllotException.notFound("Tenant " + tenant);
		}
	}

	/** Refuses with 404 a stranger to the tenant and with 403 a member whose role is too weak. */
	public void requireRole(String tenant, TenantRole required) {
		requireRead(tenant);
		if (isPlatformAdmin()) {
			return;
		}
		TenantRole role = tenants.get(tenant);
		if (role == null || !role.includes(required)) {
			throw AllotException.forbidden("Needs the role " + required + " in tenant " + tenant);
		}
	}

	public void requirePlatformAdmin() {
		if (!isPlatformAdmin()) {
			throw AllotException.forbidden("Needs the role PLATFORM_ADMIN");
		}
	}

	public void requireReadsEverything() {
		if (!readsEverything()) {
			throw AllotException.forbidden("Needs the role PLATFORM_ADMIN or AUDITOR");
		}
	}

}
