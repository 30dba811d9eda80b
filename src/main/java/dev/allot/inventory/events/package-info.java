/**
 * The events inventory publishes in the transaction of the change: a node added, a node's state changed, a pool's
 * hot-spare count changed. A named interface: booking, billing and provisioning listen to them.
 */
@NamedInterface("events")
@NullMarked
package dev.allot.inventory.events;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.NamedInterface;
