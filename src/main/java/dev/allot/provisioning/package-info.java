/**
 * Cluster lifecycle per reservation, and the {@link dev.allot.provisioning.ClusterDriver} port that builds an
 * isolated cluster on a reservation's nodes: a Kubernetes namespace ({@code kubernetes}), a Slurm account,
 * partition and reservation ({@code slurm}), or an in-memory stand-in with fault injection ({@code fake}).
 * {@link dev.allot.provisioning.ClusterDrivers} hands out the driver configured for a pool.
 * <p>
 * The lifecycle reacts to booking's events: a confirmed reservation gets a cluster, built a lead time before its
 * start and torn down at its end (or at once when cancelled), by db-scheduler steps that are persisted, retried
 * with backoff, safe on many replicas and watched by a watchdog. It moves the reservation through booking's
 * {@link dev.allot.booking.ReservationLifecycle} and publishes {@link dev.allot.provisioning.ClusterReady} and
 * {@link dev.allot.provisioning.ClusterTornDown}. {@link dev.allot.provisioning.ClusterViews} shows a cluster to
 * its tenant.
 */
@ApplicationModule(displayName = "Provisioning", allowedDependencies = { "shared", "audit", "tenancy", "booking" })
@NullMarked
package dev.allot.provisioning;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
