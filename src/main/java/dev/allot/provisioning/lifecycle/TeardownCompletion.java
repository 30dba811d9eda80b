package dev.allot.provisioning.lifecycle;

import dev.allot.provisioning.ClusterTornDown;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The end of a teardown, once the driver finds nothing left: the cluster {@code DELETED} (a failed one stays
 * {@code FAILED}) and closed, its volumes gone, {@link ClusterTornDown} published and any provision step cancelled,
 * in one transaction.
 */
@Component
class TeardownCompletion {

    private final ClusterRepository clusters;

    private final ClusterTransitions transitions;

    private final ClusterVolumes volumes;

    private final ClusterSchedule schedule;

    private final Timeline timeline;

    private final ApplicationEventPublisher events;

    private final TransactionTemplate transactions;

    private final Clock clock;

    TeardownCompletion(
            ClusterRepository clusters,
            ClusterTransitions transitions,
            ClusterVolumes volumes,
            ClusterSchedule schedule,
            Timeline timeline,
            ApplicationEventPublisher events,
            TransactionTemplate transactions,
            Clock clock) {
        this.clusters = clusters;
        this.transitions = transitions;
        this.volumes = volumes;
        this.schedule = schedule;
        this.timeline = timeline;
        this.events = events;
        this.transactions = transactions;
        this.clock = clock;
    }

    void finish(UUID id, int attempt, String volumesDone) {
        transactions.executeWithoutResult(status -> {
            Cluster cluster = clusters.findForUpdate(id).orElseThrow();
            if (!cluster.open()) {
                return;
            }
            Instant now = clock.instant();
            boolean failed = transitions.tornDown(cluster).state() == ClusterState.FAILED;
            clusters.close(id, true, now);
            volumes.tornDown(id);
            timeline.record(
                    id,
                    Timeline.TEARDOWN,
                    "SUCCEEDED",
                    failed ? ClusterState.FAILED : ClusterState.DELETED,
                    attempt,
                    !cluster.everBuilt()
                            ? "Nothing had been built: nothing to remove."
                            : failed
                                    ? "Cleaned up after the failure: the driver finds nothing left."
                                    : "Torn down: the driver finds nothing left." + volumesDone);
            if (cluster.everBuilt()) {
                events.publishEvent(
                        new ClusterTornDown(id, cluster.tenant(), cluster.pool(), cluster.readyAt(), now, true));
            }
            schedule.cancel(ClusterSchedule.PROVISION, id);
        });
    }
}
