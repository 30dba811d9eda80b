package dev.allot.provisioning.lifecycle;

import dev.allot.booking.Reservation;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterDrivers;
import dev.allot.provisioning.driver.ProvisionedCluster;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/** An extension (or a repeated step) of a cluster already handed over: the driver converges on the window. */
@Component
class WindowConvergence {

    private final ClusterRepository clusters;

    private final ClusterDrivers drivers;

    private final LifecycleProperties properties;

    private final TenantLogins logins;

    private final ClusterTransitions transitions;

    private final Timeline timeline;

    private final BuildProgress progress;

    private final TransactionTemplate transactions;

    WindowConvergence(
            ClusterRepository clusters,
            ClusterDrivers drivers,
            LifecycleProperties properties,
            TenantLogins logins,
            ClusterTransitions transitions,
            Timeline timeline,
            BuildProgress progress,
            TransactionTemplate transactions) {
        this.clusters = clusters;
        this.drivers = drivers;
        this.properties = properties;
        this.logins = logins;
        this.transitions = transitions;
        this.timeline = timeline;
        this.progress = progress;
        this.transactions = transactions;
    }

    /** An extension (or a repeated step) of a cluster already handed over: the driver converges on the window. */
    void converge(Reservation reservation, int attempt) {
        ClusterBlueprint spec =
                ClusterBlueprints.of(reservation, properties, logins.of(reservation.tenant(), reservation.project()));
        ProvisionedCluster converged = drivers.forPool(reservation.pool()).provision(spec);
        Overtaken overtaken = transactions.execute(status -> {
            Cluster cluster = clusters.findForUpdate(reservation.id()).orElseThrow();
            if (!cluster.open() || !cluster.state().isServing()) {
                // Torn down while the driver converged: what the driver just (re)built must go.
                return Overtaken.BY_TEARDOWN;
            }
            ClusterState state = transitions.updated(cluster);
            timeline.record(
                    reservation.id(),
                    Timeline.PROVISION,
                    "SUCCEEDED",
                    state,
                    attempt,
                    "The cluster holds the window until " + reservation.endsAt() + "."
                            + converged.steps().stream()
                                    .map(step -> " " + step.line())
                                    .collect(Collectors.joining()));
            return Overtaken.NO;
        });
        progress.unlessOvertaken(overtaken, spec.ref(), reservation.pool(), attempt, () -> {});
    }
}
