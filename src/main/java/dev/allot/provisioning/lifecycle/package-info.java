/** The cluster aggregate and its state machine, the persisted steps that drive it, its timeline, and the tenant's view of it. */
@NullMarked
package dev.allot.provisioning.lifecycle;

import org.jspecify.annotations.NullMarked;
