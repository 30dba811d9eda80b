package dev.allot.billing.metering;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A node out of service for a fault from {@code from} until {@code to} (null: still out); with a
 * {@code reservation} when it concerns that reservation only (a node degraded under its cluster, credited even
 * after it left the reservation's nodes), else whichever reservation holds the node.
 */
public record Outage(
        String hostname,
        Instant from,
        @Nullable Instant to,
        @Nullable UUID reservation) {

    public Outage(String hostname, Instant from, @Nullable Instant to) {
        this(hostname, from, to, null);
    }

    /** Whether it takes GPUs away from the reservation. */
    boolean concerns(BillableReservation r) {
        return reservation != null
                ? reservation.equals(r.reservationId())
                : r.nodes().contains(hostname);
    }

    public Instant endOr(Instant fallback) {
        return to == null || to.isAfter(fallback) ? fallback : to;
    }
}
