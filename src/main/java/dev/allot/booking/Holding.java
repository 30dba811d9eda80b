package dev.allot.booking;

import java.time.Instant;
import java.util.UUID;

/**
 * One live allocation, as the one record of holding says it: the reservation holds {@code node} over
 * {@code [from, until)}. Provisioning converges a cluster to its reservation's holdings and billing credits outages
 * within them; neither keeps a node list of its own.
 */
public record Holding(UUID reservationId, String node, Instant from, Instant until) {}
