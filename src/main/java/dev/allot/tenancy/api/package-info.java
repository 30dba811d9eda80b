/** REST adapter of tenancy: tenants, projects, members. */
@NullMarked
package dev.allot.tenancy.api;

import org.jspecify.annotations.NullMarked;
