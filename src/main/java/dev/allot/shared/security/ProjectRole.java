package dev.allot.shared.security;

/**
 * A member's role inside one project of a tenant, strongest first (issue 31): project admins manage the project's
 * members and decide its bookings waiting for approval; project members book in it; project viewers only read it.
 */
public enum ProjectRole {
    PROJECT_ADMIN,
    PROJECT_MEMBER,
    PROJECT_VIEWER;

    /** Whether this role may do what {@code required} may do. */
    public boolean includes(ProjectRole required) {
        return ordinal() <= required.ordinal();
    }
}
