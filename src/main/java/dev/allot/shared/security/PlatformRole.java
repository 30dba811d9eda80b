package dev.allot.shared.security;

/** Roles that span every tenant. */
public enum PlatformRole {

	/** Manages tenants, quotas and the fleet. */
	PLATFORM_ADMIN,

	/** Reads everything, changes nothing. */
	AUDITOR

}
