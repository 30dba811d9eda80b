/**
 * Nodes, their free gaps and their allocations: locking free nodes in the order a booking prefers them
 * ({@link dev.allot.booking.allocation.NodeChoice}), the earliest-fit sweep over the gaps, hot spares, and booking's
 * side of fleet changes. Uses the room store only.
 */
@NullMarked
package dev.allot.booking.allocation;

import org.jspecify.annotations.NullMarked;
