package dev.allot.provisioning.lifecycle;

import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationLifecycle;
import dev.allot.provisioning.NodeDegraded;
import dev.allot.provisioning.checks.NodeChecks;
import dev.allot.provisioning.lifecycle.ClusterReconciler.Reconciled;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * What a reconciliation changed, stored under the cluster's lock (the caller's transaction): the cluster's node list
 * and their health, its state judged on them, {@link NodeDegraded} for each added node that failed acceptance, and
 * the change on the timeline.
 */
@Component
class ReconciliationRecord {

    private final ClusterRepository clusters;

    private final ReservationLifecycle reservations;

    private final ClusterTransitions transitions;

    private final Timeline timeline;

    private final ApplicationEventPublisher events;

    private final Clock clock;

    ReconciliationRecord(
            ClusterRepository clusters,
            ReservationLifecycle reservations,
            ClusterTransitions transitions,
            Timeline timeline,
            ApplicationEventPublisher events,
            Clock clock) {
        this.clusters = clusters;
        this.reservations = reservations;
        this.transitions = transitions;
        this.timeline = timeline;
        this.events = events;
        this.clock = clock;
    }

    /** Stores the node list the cluster has now and says what changed, under the cluster's lock. */
    void record(UUID id, Reconciled done) {
        Cluster current = clusters.findForUpdate(id).orElseThrow();
        if (!current.open() || !current.state().isServing()) {
            return; // torn down meanwhile: the teardown removes everything
        }
        Instant now = clock.instant();
        List<NodeHealth> nodes = new ArrayList<>(current.nodes().stream()
                .filter(n -> !done.removed().contains(n.hostname()))
                .filter(n -> !done.added().contains(n.hostname()))
                .toList());
        List<String> failed = new ArrayList<>();
        List<String> added = new ArrayList<>();
        for (String node : done.added()) {
            NodeChecks.Outcome outcome = done.check(node).orElse(null);
            String health = outcome == null ? "NOT_CHECKED" : outcome.passed() ? "PASSED" : "FAILED";
            nodes.add(new NodeHealth(node, null, health, outcome == null ? null : outcome.detail()));
            added.add(node + (outcome == null ? "" : " (" + outcome.detail() + ")"));
            if (outcome != null && !outcome.passed()) {
                failed.add(node);
            }
        }
        ClusterState state = transitions.judged(
                current, nodes, failed.isEmpty() ? null : String.join(", ", failed) + " after it joined the cluster");
        if (!failed.isEmpty()) {
            Reservation reservation = reservations.find(id).orElseThrow();
            failed.forEach(node -> events.publishEvent(new NodeDegraded(
                    id, reservation.tenant(), node, now, "acceptance failed after it joined the cluster")));
        }
        List<String> said = new ArrayList<>();
        if (!done.removed().isEmpty()) {
            said.add("Took " + String.join(", ", done.removed()) + " out of the cluster: the reservation no longer "
                    + "holds " + (done.removed().size() == 1 ? "it" : "them") + ".");
        }
        if (!added.isEmpty()) {
            said.add("Added " + String.join(", ", added) + ": the reservation holds "
                    + (added.size() == 1 ? "it" : "them") + " now.");
        }
        if (!done.waitingFor().isEmpty()) {
            said.add("Waiting for " + String.join(", ", done.waitingFor())
                    + ", still in another cluster that is letting go of it.");
        }
        timeline.record(
                id,
                Timeline.RECONCILE,
                done.waitingFor().isEmpty() ? "ACTED" : "WAITING",
                state,
                null,
                String.join(" ", said));
    }
}
