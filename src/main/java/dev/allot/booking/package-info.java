/**
 * Reservations of whole nodes for time windows, their node allocations, the capacity calendar, earliest-fit
 * search and quotes. PostgreSQL guarantees that no node is held by two live reservations at once (an exclusion
 * constraint); the quota decision commits with the allocations, under the tenant's quota row lock.
 * <p>
 * The root package is the module's API: {@link dev.allot.booking.Bookings} (book, quote, extend, cancel), the
 * {@link dev.allot.booking.Reservation} and its {@link dev.allot.booking.ReservationStatus}, the transitions
 * provisioning makes ({@link dev.allot.booking.ReservationLifecycle}, {@link dev.allot.booking.Holding}) and the
 * home pages' reads; the events are in {@code events}, the cluster a booking asks for in {@code spec} and the
 * volumes as booked in {@code volumes} (named interfaces). Inside, by concern: {@code store} (the reservation rows),
 * {@code allocation} (nodes, free gaps, allocations, hot spares), {@code calendar} (the capacity calendar, capacity
 * reads and earliest fit, lending limits), {@code sharing} (reclaiming and repacking), {@code approval} and
 * {@code queue}; {@code api} and {@code ui} are its web adapters.
 */
@ApplicationModule(
        displayName = "Booking",
        allowedDependencies = {"shared", "audit", "tenancy", "inventory", "inventory :: events", "quota"})
@NullMarked
package dev.allot.booking;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
