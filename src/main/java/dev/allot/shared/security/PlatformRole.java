package dev.allot.shared.security;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * Roles that span every tenant. A named schema in the contract, not an inline enum: generated clients then have
 * one enum type for it, and Java's {@code native} client compiles (an inline enum inside a set does not).
 */
@Schema(enumAsRef = true, description = "A role that spans every tenant")
public enum PlatformRole {

    /** Manages tenants, quotas and the fleet. */
    PLATFORM_ADMIN,

    /** Reads everything, changes nothing. */
    AUDITOR
}
