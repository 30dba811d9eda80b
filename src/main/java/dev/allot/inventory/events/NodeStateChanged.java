package dev.allot.inventory.events;

import dev.allot.inventory.NodeState;
import java.time.Instant;

/** Published in the transaction of every node state change (health and provisioning react to it). */
public record NodeStateChanged(String hostname, String pool, NodeState from, NodeState to, String reason, Instant at) {}
