package dev.allot.shared;

/**
 * Whether a tenant of this slug exists: for modules that name tenants but may not depend on tenancy (a pool
 * dedicated to tenants, in inventory). Implemented by tenancy.
 */
public interface KnownTenants {

    boolean exists(String slug);
}
