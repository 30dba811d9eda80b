package dev.allot.shared;

import java.util.List;
import java.util.UUID;

/**
 * A tenant's bookings waiting in pools' queues, with their places: for modules that explain a tenant's standing but
 * may not depend on booking (the quota standing). Implemented by booking's queue.
 */
public interface QueuedBookings {

    /** One queued booking: its pool, project, GPUs and place in its pool's queue (1: next). */
    record Queued(UUID id, String pool, String project, int gpus, int position) {}

    /** The tenant's queued bookings of pools of this GPU type, by pool and place. */
    List<Queued> of(String tenantSlug, String gpuTypeCode);
}
