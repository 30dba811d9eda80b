/**
 * The volumes a reservation asked for, as stored: booked with it, made and torn down by provisioning, measured and
 * metered by billing, and kept past the reservation when retained. Uses the rooms spec and events.
 */
@NamedInterface("volumes")
@NullMarked
package dev.allot.booking.volumes;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.NamedInterface;
