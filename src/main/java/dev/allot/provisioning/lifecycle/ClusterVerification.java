package dev.allot.provisioning.lifecycle;

import dev.allot.booking.Reservation;
import dev.allot.provisioning.checks.NodeChecks;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterStatus;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.Endpoints;
import dev.allot.provisioning.driver.ProvisionedCluster;
import java.util.List;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * INSTALLING_DRIVERS and after: the driver reads the built cluster back, its nodes are checked ({@link Acceptance}),
 * and the cluster is handed over ({@link Handover}), or waits for the nodes another cluster still holds
 * ({@link NodeWait}).
 */
@Component
class ClusterVerification {

    private final ClusterTransitions transitions;

    private final BuildProgress progress;

    private final Acceptance acceptance;

    private final Handover handover;

    private final NodeWait nodeWait;

    ClusterVerification(
            ClusterTransitions transitions,
            BuildProgress progress,
            Acceptance acceptance,
            Handover handover,
            NodeWait nodeWait) {
        this.transitions = transitions;
        this.progress = progress;
        this.acceptance = acceptance;
        this.handover = handover;
        this.nodeWait = nodeWait;
    }

    /** INSTALLING_DRIVERS: the driver finds every part of the cluster, with the CUDA driver chosen at booking. */
    void verify(
            Reservation reservation,
            ClusterBlueprint spec,
            ClusterDriver driver,
            ProvisionedCluster built,
            Endpoints endpoints,
            int attempt,
            List<NodeHealth> passedBefore,
            List<String> awaited) {
        UUID id = reservation.id();
        ClusterStatus status = driver.status(spec.ref());
        if (status.phase() != ClusterStatus.Phase.READY) {
            throw new DriverFailedException(
                    "The driver finds the cluster " + status.phase()
                            + (status.missing().isEmpty() ? "" : ", missing " + String.join(", ", status.missing())),
                    true);
        }
        List<NodeHealth> nodes = built.nodes().stream()
                .map(n -> new NodeHealth(n, status.nodeStates().get(n), "NOT_CHECKED", null))
                .toList();
        // Only what the driver's status read back: what was built is listed, step by step, at CREATING.
        Overtaken overtaken = progress.advance(
                id,
                ClusterState.INSTALLING_DRIVERS,
                transitions::verified,
                attempt,
                "The driver reads every part it built back from the " + spec.orchestrator() + " cluster."
                        + SharedMemoryNote.of(spec, built.access()),
                endpoints,
                nodes,
                List.of());
        progress.unlessOvertaken(overtaken, spec.ref(), reservation.pool(), attempt, () -> {
            Acceptance.Checked checked = acceptance.check(driver, reservation, spec, nodes, passedBefore, attempt);
            if (!awaited.isEmpty()) {
                nodeWait.waitForTheRest(reservation, endpoints, checked.nodes(), awaited, attempt);
                return;
            }
            List<NodeChecks.Outcome> failed = checked.failed();
            String problem = failed.isEmpty()
                    ? acceptance.acrossNodes(driver, reservation, spec, checked.nodes(), failed, attempt)
                    : null;
            Overtaken handedOver = handover.handOver(
                    reservation,
                    spec,
                    endpoints,
                    checked.nodes(),
                    driver.supportsHealthChecks(),
                    failed,
                    problem,
                    attempt);
            progress.unlessOvertaken(handedOver, spec.ref(), reservation.pool(), attempt, () -> {});
        });
    }
}
