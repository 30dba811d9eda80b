package dev.allot.provisioning.lifecycle;

/** What happened to the cluster while a provision step talked to the driver. */
enum Overtaken {

    /** Nothing: the step goes on. */
    NO,
    /** A teardown began: what this step built must go. */
    BY_TEARDOWN,
    /** Another run of the step is ahead (it was run twice): leave the cluster to it. */
    BY_TWIN;

    /**
     * The cluster (locked) is no longer where the step left it: another run of the step is ahead when it is still
     * being built or served (recorded on the timeline), else a teardown began.
     */
    static Overtaken of(Cluster cluster, int attempt, Timeline timeline) {
        if (cluster.open() && (cluster.state().isBuilding() || cluster.state().isServing())) {
            timeline.record(
                    cluster.reservationId(),
                    Timeline.PROVISION,
                    "SKIPPED",
                    cluster.state(),
                    attempt,
                    "Another run of this step is ahead (the cluster is " + cluster.state() + "): this one stops.");
            return BY_TWIN;
        }
        return BY_TEARDOWN;
    }
}
