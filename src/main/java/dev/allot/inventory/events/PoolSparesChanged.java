package dev.allot.inventory.events;

import java.util.UUID;

/** A pool's hot-spare count changed; published in the transaction of the change (booking picks the spares). */
public record PoolSparesChanged(UUID poolId, String pool, int from, int to) {}
