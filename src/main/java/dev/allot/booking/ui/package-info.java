/**
 * Pages of booking: the live capacity calendar (server-sent events fed by PostgreSQL LISTEN/NOTIFY, so every
 * replica hears every change), the booking form with its live quote, and a tenant's reservations.
 */
@NullMarked
package dev.allot.booking.ui;

import org.jspecify.annotations.NullMarked;
