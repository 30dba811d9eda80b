/**
 * What a booking costs: rate cards per GPU type, the rate classes a booking's GPU-hours are split into, the booked
 * segments billing meters against, and the project budget caps billing keeps and quota enforces. A named interface:
 * billing (and the demo data) use it.
 */
@NamedInterface("pricing")
@NullMarked
package dev.allot.quota.pricing;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.NamedInterface;
