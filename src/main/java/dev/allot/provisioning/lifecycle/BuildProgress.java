package dev.allot.provisioning.lifecycle;

import dev.allot.provisioning.driver.ClusterDrivers;
import dev.allot.provisioning.driver.ClusterRef;
import dev.allot.provisioning.driver.Endpoints;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A provision step's progress, taken on the stored state under the cluster's row lock: the next state unless another
 * step overtook this one, and what the step built removed again when a teardown overtook it.
 */
@Component
class BuildProgress {

    private final ClusterRepository clusters;

    private final ClusterDrivers drivers;

    private final Timeline timeline;

    private final TransactionTemplate transactions;

    BuildProgress(
            ClusterRepository clusters, ClusterDrivers drivers, Timeline timeline, TransactionTemplate transactions) {
        this.clusters = clusters;
        this.drivers = drivers;
        this.timeline = timeline;
        this.transactions = transactions;
    }

    /** Moves to the next state unless another step overtook this one; records the progress. */
    Overtaken advance(
            UUID id,
            ClusterState from,
            UnaryOperator<Cluster> next,
            int attempt,
            String detail,
            Endpoints endpoints,
            List<NodeHealth> nodes,
            List<String> done) {
        return transactions.execute(status -> {
            Cluster cluster = clusters.findForUpdate(id).orElseThrow();
            if (cluster.state() != from || !cluster.open()) {
                return Overtaken.of(cluster, attempt, timeline);
            }
            Cluster moved = next.apply(cluster);
            clusters.built(id, endpoints, nodes);
            timeline.record(id, Timeline.PROVISION, "PROGRESSED", moved.state(), attempt, detail);
            done.forEach(line -> timeline.record(id, Timeline.PROVISION, "PROGRESSED", moved.state(), attempt, line));
            return Overtaken.NO;
        });
    }

    void unlessOvertaken(Overtaken overtaken, ClusterRef ref, String pool, int attempt, Runnable next) {
        switch (overtaken) {
            case NO -> next.run();
            case BY_TEARDOWN -> removeWhatWasBuilt(ref, pool, attempt);
            case BY_TWIN -> {}
        }
    }

    /**
     * This step built something after the reservation was cancelled or a teardown began (or even finished): it
     * removes it itself, so that nothing is left whichever finished first.
     */
    void removeWhatWasBuilt(ClusterRef ref, String pool, int attempt) {
        drivers.forPool(pool).teardown(ref);
        transactions.executeWithoutResult(status -> {
            Cluster cluster = clusters.findForUpdate(ref.reservationId()).orElseThrow();
            timeline.record(
                    ref.reservationId(),
                    Timeline.PROVISION,
                    "SKIPPED",
                    cluster.state(),
                    attempt,
                    "The reservation was cancelled or its cluster torn down while this step built it: "
                            + "removed what the step had built.");
        });
    }
}
