package dev.allot.inventory.events;

import java.util.UUID;

/** Published in the transaction that adds a node, so booking can make it bookable in the same commit. */
public record NodeAdded(long nodeId, String hostname, UUID poolId) {}
