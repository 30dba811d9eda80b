/**
 * The events booking publishes as a reservation is booked, queued, decided, changed and ended, and as a retained
 * volume is deleted. Provisioning and billing listen to them; booking's other rooms only publish them.
 */
@NamedInterface("events")
@NullMarked
package dev.allot.booking.events;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.NamedInterface;
