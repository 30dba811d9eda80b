package dev.allot.provisioning.lifecycle;

import java.util.UUID;

/**
 * A step asked the cluster for a transition its lifecycle does not allow from the state it is in: a bug in the
 * step, or a step that decided without the cluster's row lock and lost a race. It never reaches a tenant as such.
 */
public class ClusterTransitionRefusedException extends IllegalStateException {

    private final ClusterState state;

    private final ClusterState requested;

    ClusterTransitionRefusedException(UUID reservationId, ClusterState state, ClusterState requested) {
        super("The cluster of reservation " + reservationId + " is " + state + " and cannot become " + requested);
        this.state = state;
        this.requested = requested;
    }

    public ClusterState state() {
        return state;
    }

    public ClusterState requested() {
        return requested;
    }
}
