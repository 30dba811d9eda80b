package dev.allot.inventory.events;

import java.time.Instant;

import dev.allot.inventory.NodeState;

/** Published in the transaction of every node state change (health and provisioning react to it). */
public record NodeStateChanged(String hostname, String pool, NodeState from, NodeState to, String reason,
		Instant at) {
}
