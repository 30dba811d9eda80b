/**
 * Health checks of a cluster's nodes on demand (asked for, queued as persisted steps, run through {@code checks}, and
 * read back), the remediation of a node that fails one or reports a fault, and a node's history. Moves clusters
 * through the lifecycle's {@code ClusterTransitions}; the lifecycle knows nothing of this package.
 */
@NullMarked
package dev.allot.provisioning.health;

import org.jspecify.annotations.NullMarked;
