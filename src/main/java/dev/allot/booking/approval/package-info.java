/**
 * Booking approvals: a booking its tenant's policy asks approval for waits, holding its nodes, until an admin
 * decides or its hold runs out ({@link dev.allot.booking.approval.Approvals}). Uses the rooms allocation, calendar,
 * store and events.
 */
@NullMarked
package dev.allot.booking.approval;

import org.jspecify.annotations.NullMarked;
