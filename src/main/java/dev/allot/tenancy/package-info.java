/**
 * Tenants (the teams sharing the fleet), their projects, and their members with a role each.
 * Other modules ask {@link dev.allot.tenancy.Tenancy} whether a tenant exists, may change things,
 * and who belongs to it. Inside: {@code invitations} and {@code status} (active or suspended), named only by
 * tenancy's own API and pages.
 */
@ApplicationModule(
        displayName = "Tenancy",
        allowedDependencies = {"shared", "audit"})
@NullMarked
package dev.allot.tenancy;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
