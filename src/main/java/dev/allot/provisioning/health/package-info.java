/** Health checks of a cluster's nodes: asked for, queued as persisted steps, run through the pool's driver, and read back. */
@NullMarked
package dev.allot.provisioning.health;

import org.jspecify.annotations.NullMarked;
