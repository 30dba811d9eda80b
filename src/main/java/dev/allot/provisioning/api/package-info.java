/** REST adapters of provisioning: a reservation's cluster and its kubeconfig. */
@NullMarked
package dev.allot.provisioning.api;

import org.jspecify.annotations.NullMarked;
