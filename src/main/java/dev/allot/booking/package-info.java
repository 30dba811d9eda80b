/**
 * Reservations of whole nodes for time windows, their node allocations, the capacity calendar, earliest-fit
 * search and quotes. PostgreSQL guarantees that no node is held by two live reservations at once (an exclusion
 * constraint); the quota decision commits with the allocations, under the tenant's quota row lock.
 */
@ApplicationModule(displayName = "Booking",
		allowedDependencies = { "shared", "audit", "tenancy", "inventory", "inventory :: events", "quota" })
@NullMarked
package dev.allot.booking;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
