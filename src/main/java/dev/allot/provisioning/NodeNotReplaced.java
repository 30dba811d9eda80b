package dev.allot.provisioning;

import java.time.Instant;
import java.util.UUID;

/**
 * A node of a reservation was taken out of service and no spare or free node could take its place in it: the
 * tenant is told. {@code live}: the reservation's cluster runs without a healthy node ({@code DEGRADED}); else the
 * reservation lies ahead and still holds the node.
 */
public record NodeNotReplaced(
        UUID reservationId, String tenant, String pool, String hostname, String reason, boolean live, Instant at) {}
