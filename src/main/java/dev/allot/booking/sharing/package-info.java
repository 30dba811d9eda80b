/**
 * Sharing capacity with guarantees: reclaiming preemptible reservations for a guaranteed booking
 * ({@link dev.allot.booking.sharing.Reclaiming}) and moving reservations that have not started to make room
 * ({@link dev.allot.booking.sharing.Repacking}). Uses the rooms allocation, calendar, store and events.
 */
@NullMarked
package dev.allot.booking.sharing;

import org.jspecify.annotations.NullMarked;
