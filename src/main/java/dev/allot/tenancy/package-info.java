/**
 * Tenants (the teams sharing the fleet), their projects, and their members with a role each.
 * Other modules ask {@link dev.allot.tenancy.Tenancy} whether a tenant exists, may change things,
 * and who belongs to it.
 */
@ApplicationModule(displayName = "Tenancy", allowedDependencies = { "shared", "audit" })
@NullMarked
package dev.allot.tenancy;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
