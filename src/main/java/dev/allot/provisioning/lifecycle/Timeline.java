package dev.allot.provisioning.lifecycle;

import java.time.Clock;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/** Records each lifecycle step and its outcome, as the tenant reads it in the cluster's timeline. */
@Component
public class Timeline {

    static final String SCHEDULE = "schedule";

    static final String PROVISION = "provision";

    static final String TEARDOWN = "teardown";

    static final String WATCHDOG = "watchdog";

    public static final String HEALTH_CHECK = "health-check";

    public static final String REMEDIATION = "remediation";

    static final String RECONCILE = "reconcile";

    private final ClusterRepository clusters;

    private final Clock clock;

    Timeline(ClusterRepository clusters, Clock clock) {
        this.clusters = clusters;
        this.clock = clock;
    }

    public void record(
            UUID reservationId,
            String step,
            String outcome,
            ClusterState state,
            @Nullable Integer attempt,
            String detail) {
        clusters.record(reservationId, step, outcome, state, attempt, detail, clock.instant());
    }
}
