package dev.allot.inventory;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * What holds a node from some instant on. Implemented by booking (which depends on inventory, not the reverse),
 * so quarantining a node, or dedicating its pool to other tenants, can name the reservations it affects.
 */
public interface NodeCommitments {

    record Commitment(UUID reservationId, String tenant, Instant startsAt, Instant endsAt) {}

    List<Commitment> onNodeFrom(long nodeId, Instant from);

    /** The live reservations holding a node of the pool from an instant on. */
    List<Commitment> inPoolFrom(UUID poolId, Instant from);
}
