/** REST adapters of booking: reservations, quotes, the capacity calendar and earliest-fit search. */
@NullMarked
package dev.allot.booking.api;

import org.jspecify.annotations.NullMarked;
