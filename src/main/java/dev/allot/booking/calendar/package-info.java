/**
 * The capacity calendar: the hourly and daily counts kept from the free gaps, each replica's live copy of them,
 * the capacity reads and earliest-fit search ({@link dev.allot.booking.calendar.Capacity}), and the lending limits
 * and guarantee headroom read from the same hourly counts ({@link dev.allot.booking.calendar.Lending}). Uses the
 * rooms allocation and spec.
 */
@NullMarked
package dev.allot.booking.calendar;

import org.jspecify.annotations.NullMarked;
