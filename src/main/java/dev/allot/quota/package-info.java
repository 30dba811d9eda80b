/**
 * Quota policies and rate cards, and the decision "may this booking happen, at which rate classes and price".
 * Booking calls {@link dev.allot.quota.Quotas} inside its own transaction, under a lock on the tenant's quota
 * row, so that concurrent bookings of one tenant cannot together pass a cap.
 * <p>
 * Inside: {@code pricing} (rate cards, rate classes, booked segments and project budget caps; a named interface,
 * which billing uses) and {@code policies} (a policy's time windows and projects' caps, internal).
 */
@ApplicationModule(
        displayName = "Quota",
        allowedDependencies = {"shared", "audit", "tenancy", "inventory"})
@NullMarked
package dev.allot.quota;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
