package dev.allot.provisioning.health;

import dev.allot.provisioning.NodeDegradationEnded;
import dev.allot.provisioning.driver.HealthCheckKind;
import dev.allot.provisioning.lifecycle.Cluster;
import dev.allot.provisioning.lifecycle.ClusterRepository;
import dev.allot.provisioning.lifecycle.ClusterState;
import dev.allot.provisioning.lifecycle.ClusterTransitions;
import dev.allot.provisioning.lifecycle.NodeHealth;
import dev.allot.provisioning.lifecycle.Timeline;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A node back from its reboot that passed its check again goes back in service, in one transaction under the
 * cluster's lock: health {@code PASSED}, its credited span ended ({@link NodeDegradationEnded}), the cluster judged
 * again ({@code READY} when nothing else is wrong), and the timeline.
 */
@Component
class ReturnToService {

    private final ClusterRepository clusters;

    private final ClusterTransitions transitions;

    private final Timeline timeline;

    private final ApplicationEventPublisher events;

    private final TransactionTemplate transactions;

    private final Clock clock;

    ReturnToService(
            ClusterRepository clusters,
            ClusterTransitions transitions,
            Timeline timeline,
            ApplicationEventPublisher events,
            TransactionTemplate transactions,
            Clock clock) {
        this.clusters = clusters;
        this.transitions = transitions;
        this.timeline = timeline;
        this.events = events;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** The node passed {@code kind} after its reboot ({@code detail}: what the check found). */
    void afterReboot(UUID reservationId, String node, HealthCheckKind kind, String detail) {
        transactions.executeWithoutResult(status -> {
            Cluster current = clusters.findForUpdate(reservationId).orElseThrow();
            List<NodeHealth> nodes = current.nodes().stream()
                    .map(n -> !n.hostname().equals(node)
                            ? n
                            : new NodeHealth(n.hostname(), n.state(), "PASSED", detail + " (after its reboot)"))
                    .toList();
            ClusterState state = transitions.judged(current, nodes, null);
            events.publishEvent(
                    new NodeDegradationEnded(reservationId, node, clock.instant(), kind + " passed after the reboot"));
            timeline.record(
                    reservationId,
                    Timeline.REMEDIATION,
                    "SUCCEEDED",
                    state,
                    null,
                    Remediation.shorten(
                            node
                                    + " is back from its reboot and passed " + kind + " again: back in service ("
                                    + detail
                                    + ").",
                            4000));
        });
    }
}
