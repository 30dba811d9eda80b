package dev.allot.inventory;

import java.util.Set;

/** Only an {@code AVAILABLE} node takes new allocations; {@code RETIRED} is final. */
public enum NodeState {
    AVAILABLE,
    QUARANTINED,
    DRAINING,
    IN_REPAIR,
    RETIRED;

    boolean mayBecome(NodeState next) {
        return switch (this) {
            case AVAILABLE -> Set.of(QUARANTINED, DRAINING, IN_REPAIR, RETIRED).contains(next);
            case QUARANTINED, DRAINING, IN_REPAIR -> next != this;
            case RETIRED -> false;
        };
    }

    /** Out of service for a fault rather than by plan: shown as unhealthy capacity. */
    public boolean isUnhealthy() {
        return this == QUARANTINED || this == IN_REPAIR;
    }
}
