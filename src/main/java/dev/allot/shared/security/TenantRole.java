package dev.allot.shared.security;

/** A member's role inside one tenant, strongest first. */
public enum TenantRole {
    TENANT_ADMIN,
    MEMBER,
    VIEWER;

    /** Whether this role may do what {@code required} may do. */
    public boolean includes(TenantRole required) {
        return ordinal() <= required.ordinal();
    }
}
