/** REST adapters of the inventory: GPU types, pools, nodes and node states. */
@NullMarked
package dev.allot.inventory.api;

import org.jspecify.annotations.NullMarked;
