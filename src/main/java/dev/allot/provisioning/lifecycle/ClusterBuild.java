package dev.allot.provisioning.lifecycle;

import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.provisioning.driver.BuildStep;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterDrivers;
import dev.allot.provisioning.driver.Endpoints;
import dev.allot.provisioning.driver.NodesUnavailableException;
import dev.allot.provisioning.driver.ProvisionedCluster;
import java.util.List;
import java.util.UUID;
import org.springframework.stereotype.Component;

/** CREATING: the driver builds a reservation's cluster on the nodes that are free now. */
@Component
class ClusterBuild {

    private final ReservationLifecycle reservations;

    private final ClusterDrivers drivers;

    private final Failures failures;

    private final LifecycleProperties properties;

    private final TenantLogins logins;

    private final ClusterVolumes volumes;

    private final ClusterTransitions transitions;

    private final BuildProgress progress;

    private final NodeWait nodeWait;

    private final ClusterVerification verification;

    ClusterBuild(
            ReservationLifecycle reservations,
            ClusterDrivers drivers,
            Failures failures,
            LifecycleProperties properties,
            TenantLogins logins,
            ClusterVolumes volumes,
            ClusterTransitions transitions,
            BuildProgress progress,
            NodeWait nodeWait,
            ClusterVerification verification) {
        this.reservations = reservations;
        this.drivers = drivers;
        this.failures = failures;
        this.properties = properties;
        this.logins = logins;
        this.volumes = volumes;
        this.transitions = transitions;
        this.progress = progress;
        this.nodeWait = nodeWait;
        this.verification = verification;
    }

    /**
     * CREATING: the driver builds the cluster (or finds it built by an earlier attempt) on the reservation's nodes
     * that are free now. A node another reservation or cluster still has (a preempted one's, during its notice) is
     * waited for: the cluster is built and checked on the others meanwhile, and the node joins when it is free, so
     * that only it is left to add and check then. The cluster is handed over once it has every node.
     */
    void build(Reservation reservation, Cluster before, int attempt) {
        UUID id = reservation.id();
        ClusterDriver driver = drivers.forPool(reservation.pool());
        List<String> outOfService = reservations.nodesOutOfService(id);
        if (!outOfService.isEmpty()) {
            failures.giveUpBuilding(
                    id,
                    "Reserved nodes are out of service: " + String.join("; ", outOfService),
                    attempt,
                    Timeline.PROVISION);
            return;
        }
        List<String> held = nodeWait.nodesStillHeld(reservation);
        List<String> free = reservation.nodes().stream()
                .filter(node -> !held.contains(node))
                .toList();
        if (free.isEmpty()) {
            throw NodesUnavailableException.heldByAnother(held, "still held by another cluster");
        }
        ClusterBlueprint whole =
                ClusterBlueprints.of(reservation, properties, logins.of(reservation.tenant(), reservation.project()));
        ClusterBlueprint spec = held.isEmpty() ? whole : whole.onNodes(free);

        ProvisionedCluster built = converged(driver, spec, driver.provision(spec));
        Endpoints endpoints = Endpoints.of(built.access());
        List<NodeHealth> created = built.nodes().stream()
                .map(n -> new NodeHealth(n, null, "NOT_CHECKED", null))
                .toList();
        Overtaken overtaken = progress.advance(
                id,
                ClusterState.CREATING,
                transitions::built,
                attempt,
                "Created on " + String.join(", ", built.nodes()) + "; reach it at " + describe(endpoints) + "."
                        + volumes.created(id, built.volumes()),
                endpoints,
                created,
                built.steps().stream().map(BuildStep::line).toList());
        List<NodeHealth> passedBefore =
                before.nodes().stream().filter(n -> "PASSED".equals(n.health())).toList();
        progress.unlessOvertaken(
                overtaken,
                spec.ref(),
                reservation.pool(),
                attempt,
                () -> verification.verify(reservation, spec, driver, built, endpoints, attempt, passedBefore, held));
    }

    /**
     * A cluster an earlier attempt built on fewer nodes (some were still held then, or one was replaced since) is
     * brought to exactly the blueprint's nodes: a driver may keep the nodes it had on a repeated provision.
     */
    private static ProvisionedCluster converged(ClusterDriver driver, ClusterBlueprint spec, ProvisionedCluster built) {
        List<String> joining = spec.nodes().stream()
                .filter(node -> !built.nodes().contains(node))
                .toList();
        List<String> leaving = built.nodes().stream()
                .filter(node -> !spec.nodes().contains(node))
                .toList();
        if (!joining.isEmpty()) {
            driver.addNodes(spec.ref(), joining);
        }
        if (!leaving.isEmpty()) {
            driver.removeNodes(spec.ref(), leaving);
        }
        return joining.isEmpty() && leaving.isEmpty() ? built : built.onNodes(spec.nodes());
    }

    static String describe(Endpoints endpoints) {
        if (endpoints.sshHost() != null) {
            return "ssh " + endpoints.sshHost() + ", sbatch -A " + endpoints.slurmAccount() + " -p "
                    + endpoints.slurmPartition() + " --reservation=" + endpoints.slurmReservation();
        }
        if (endpoints.apiServer() != null) {
            return endpoints.apiServer() + ", namespace " + endpoints.namespace() + " (kubeconfig from the API)";
        }
        return endpoints.other() == null ? "(no endpoint)" : endpoints.other();
    }
}
