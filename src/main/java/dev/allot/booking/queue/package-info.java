/**
 * The booking queue: a queueable booking that did not fit waits, holding nothing, and is booked through
 * {@link dev.allot.booking.Bookings} when capacity frees ({@link dev.allot.booking.queue.BookingQueue}). Uses the
 * rooms allocation, store and events.
 */
@NullMarked
package dev.allot.booking.queue;

import org.jspecify.annotations.NullMarked;
