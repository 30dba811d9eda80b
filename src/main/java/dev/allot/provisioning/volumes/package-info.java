/**
 * Upkeep of volumes between provisioning steps: removing retained volumes their tenant deleted, and the monitored
 * size limit (measuring what each volume holds where the platform enforces no size).
 */
@NullMarked
package dev.allot.provisioning.volumes;

import org.jspecify.annotations.NullMarked;
