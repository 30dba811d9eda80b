/**
 * The fleet: GPU types, pools of identical nodes, nodes with their topology (rack, InfiniBand block), CUDA
 * drivers and state. A node that is not {@code AVAILABLE} is never allocated; each state change is audited and
 * published as {@link dev.allot.inventory.events.NodeStateChanged}. The events are the named interface
 * {@code events}, which booking, billing and provisioning listen to.
 */
@ApplicationModule(
        displayName = "Inventory",
        allowedDependencies = {"shared", "audit"})
@NullMarked
package dev.allot.inventory;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
