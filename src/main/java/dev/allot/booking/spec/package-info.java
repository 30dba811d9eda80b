/**
 * What a team asks its cluster to be: the {@link dev.allot.booking.spec.ClusterSpec} a booking carries, its labels
 * and SSH keys as checked, and what provisioning answers booking about a pool's drivers
 * ({@link dev.allot.booking.spec.PoolOrchestrators}, {@link dev.allot.booking.spec.ClusterChoices}). Uses no other
 * room.
 */
@NamedInterface("spec")
@NullMarked
package dev.allot.booking.spec;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.NamedInterface;
