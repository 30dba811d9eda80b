package dev.allot.booking;

/**
 * {@code CONFIRMED}, {@code ACTIVE} and {@code COMPLETED} follow from the clock and the window (computed on
 * read, so no job has to flip them on N replicas); {@code CANCELLED} is stored.
 */
public enum ReservationStatus {

	CONFIRMED, ACTIVE, COMPLETED, CANCELLED

}
