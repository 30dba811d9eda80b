package dev.allot.booking.allocation;

import dev.allot.inventory.NodeCommitments;
import dev.allot.inventory.events.NodeAdded;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Booking's side of fleet changes: a new node is free forever (and may become a hot spare), and quarantine asks
 * what holds a node.
 */
@Component
class FleetChanges implements NodeCommitments {

    private final JdbcClient jdbc;

    private final CommitmentRepository commitments;

    private final HotSpares spares;

    FleetChanges(JdbcClient jdbc, CommitmentRepository commitments, HotSpares spares) {
        this.jdbc = jdbc;
        this.commitments = commitments;
        this.spares = spares;
    }

    /** Synchronous, in the transaction that adds the node: the node and its free time commit together. */
    @EventListener
    void on(NodeAdded added) {
        jdbc.sql("INSERT INTO free_gap (node_id, pool_id, during) VALUES (?, ?, tstzrange(NULL, NULL))")
                .params(added.nodeId(), added.poolId())
                .update();
        spares.replenish(added.poolId());
    }

    @Override
    public List<Commitment> onNodeFrom(long nodeId, Instant from) {
        return commitments.onNodeFrom(nodeId, from);
    }

    @Override
    public List<Commitment> inPoolFrom(UUID poolId, Instant from) {
        return commitments.inPoolFrom(poolId, from);
    }
}
