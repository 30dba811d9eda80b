/**
 * Cluster lifecycle per reservation: an isolated cluster built on a reservation's nodes a lead time before its
 * start, checked, handed over and torn down at its end (or at once when cancelled).
 * <p>
 * The root package is the module's API: the events it publishes ({@link dev.allot.provisioning.ClusterReady},
 * {@link dev.allot.provisioning.ClusterTornDown}). Inside, by concern:
 * <ul>
 * <li>{@code lifecycle}: the {@link dev.allot.provisioning.lifecycle.Cluster} aggregate and its state machine, the
 * db-scheduler steps that drive it (persisted, retried with backoff, safe on many replicas, watched by a
 * watchdog), its timeline, and what a tenant sees of it. It reacts to booking's events and moves the reservation
 * through booking's {@link dev.allot.booking.ReservationLifecycle}.</li>
 * <li>{@code driver}: the {@link dev.allot.provisioning.driver.ClusterDriver} port, the decorator that bounds each
 * call in time, the per-pool registry, and the adapters {@code driver.kubernetes} (a namespace per reservation),
 * {@code driver.slurm} (an account, partition and reservation) and {@code driver.fake} (in memory, with fault
 * injection).</li>
 * <li>{@code health}: acceptance and on-demand health checks of a cluster's nodes.</li>
 * <li>{@code volumes}: upkeep of volumes (booked in {@code booking}): removing deleted retained ones, and the
 * monitored size limit.</li>
 * </ul>
 * {@code api} and {@code ui} are its web adapters.
 */
@ApplicationModule(
        displayName = "Provisioning",
        allowedDependencies = {
            "shared",
            "audit",
            "tenancy",
            "booking",
            "booking :: events",
            "booking :: spec",
            "booking :: volumes",
            "inventory",
            "inventory :: events"
        })
@NullMarked
package dev.allot.provisioning;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
