/**
 * The reservation rows: storing and reading reservations ({@link dev.allot.booking.store.ReservationRepository}) and the one
 * SQL expression of a reservation's lifecycle stage ({@link dev.allot.booking.store.ReservationStages}). Uses the
 * room spec only.
 */
@NullMarked
package dev.allot.booking.store;

import org.jspecify.annotations.NullMarked;
