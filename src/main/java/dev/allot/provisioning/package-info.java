/**
 * Cluster lifecycle per reservation, and the {@link dev.allot.provisioning.ClusterDriver} port that builds an
 * isolated cluster on a reservation's nodes: a Kubernetes namespace ({@code kubernetes}), a Slurm account,
 * partition and reservation ({@code slurm}), or an in-memory stand-in with fault injection ({@code fake}).
 * {@link dev.allot.provisioning.ClusterDrivers} hands out the driver configured for a pool.
 */
@ApplicationModule(displayName = "Provisioning", allowedDependencies = { "shared" })
@NullMarked
package dev.allot.provisioning;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
