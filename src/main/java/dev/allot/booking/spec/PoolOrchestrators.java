package dev.allot.booking.spec;

import dev.allot.booking.spec.ClusterSpec.Orchestrator;
import java.util.List;
import java.util.Set;

/**
 * Which orchestrators a pool's cluster driver builds. Provisioning owns the drivers and implements this (it
 * depends on booking, never the reverse); booking asks it before it books or quotes, so that a SLURM booking on a
 * Kubernetes pool is refused instead of getting a namespace.
 */
public interface PoolOrchestrators {

    /** The orchestrators the pool's driver builds; empty when no driver serves the pool. */
    Set<Orchestrator> offeredBy(String pool);

    /** The pools configured with a driver of their own that builds this orchestrator, sorted. */
    List<String> configuredFor(Orchestrator orchestrator);

    /** What a pool without a driver of its own gets from the default driver. */
    Set<Orchestrator> byDefault();
}
