package dev.allot.inventory;

import dev.allot.shared.AllotException;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** One machine of a pool, booked whole; {@code spare} while it is one of the pool's hot spares. */
public record Node(
        long id,
        String hostname,
        String pool,
        String rack,
        String ibBlock,
        List<String> cudaDrivers,
        NodeState state,
        @Nullable String stateReason,
        Instant stateChangedAt,
        Instant createdAt,
        boolean spare) {

    /** A node just added to a pool: available, not a spare. */
    static Node added(long id, String pool, Inventory.NewNode request, Instant now) {
        return new Node(
                id,
                request.hostname(),
                pool,
                request.rack(),
                request.ibBlock(),
                request.cudaDrivers(),
                NodeState.AVAILABLE,
                null,
                now,
                now,
                false);
    }

    public Node {
        cudaDrivers = List.copyOf(cudaDrivers);
    }

    /** The node in its next state; refuses a transition the lifecycle does not allow. */
    Node moveTo(NodeState next, String reason, Instant at) {
        if (!state.mayBecome(next)) {
            throw AllotException.conflict(
                            "invalid_node_state", "Node " + hostname + " is " + state + " and cannot become " + next)
                    .with("state", state);
        }
        return new Node(
                id,
                hostname,
                pool,
                rack,
                ibBlock,
                cudaDrivers,
                next,
                reason,
                at,
                createdAt,
                spare && next == NodeState.AVAILABLE);
    }
}
