package dev.allot.provisioning.lifecycle;

import dev.allot.booking.ReservationLifecycle;
import dev.allot.inventory.Inventory;
import dev.allot.inventory.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Each node of a cluster as it is now, read where each fact is kept rather than from the list the lifecycle
 * stored when it last built or moved the cluster: {@code QUARANTINED} when inventory has it out of service for a
 * fault, {@code REBOOTING} while a check waits for it to come back from a reboot, {@code CHECKING} while an
 * on-demand check of the cluster is queued or running, and {@code REPLACED} for a node the reservation held
 * (or was to hold) and let go of before its end (its allocations say so); otherwise what the last check found
 * ({@code PASSED}, {@code FAILED}, or {@code NOT_CHECKED}).
 */
@Component
public class NodeHealthNow {

    static final String QUARANTINED = "QUARANTINED";

    static final String REBOOTING = "REBOOTING";

    static final String CHECKING = "CHECKING";

    static final String REPLACED = "REPLACED";

    private final JdbcClient jdbc;

    private final Inventory inventory;

    private final ReservationLifecycle reservations;

    NodeHealthNow(JdbcClient jdbc, Inventory inventory, ReservationLifecycle reservations) {
        this.jdbc = jdbc;
        this.inventory = inventory;
        this.reservations = reservations;
    }

    public List<NodeHealth> of(UUID reservationId, List<NodeHealth> stored) {
        Set<String> rebooting = jdbc.sql("""
				SELECT split_part(task_instance, '/', 2) FROM scheduled_tasks
				WHERE task_name = ? AND task_instance LIKE ?""")
                .params(ClusterSchedule.NODE_RECHECK.getTaskName(), reservationId + "/%")
                .query(String.class)
                .set();
        boolean checking =
                jdbc.sql("""
				SELECT EXISTS (SELECT 1 FROM cluster_health_check WHERE reservation_id = ? AND status IN ('QUEUED', 'RUNNING'))""").param(reservationId).query(Boolean.class).single();
        List<NodeHealth> nodes = new ArrayList<>();
        for (NodeHealth node : stored) {
            Node known = inventory.findNode(node.hostname()).orElse(null);
            if (known != null && known.state().isUnhealthy()) {
                nodes.add(new NodeHealth(node.hostname(), node.state(), QUARANTINED, known.stateReason()));
            } else if (rebooting.contains(node.hostname())) {
                nodes.add(new NodeHealth(
                        node.hostname(),
                        node.state(),
                        REBOOTING,
                        "Rebooted for a software fault: checked again once it is back"));
            } else if (checking && !node.health().equals("FAILED")) {
                nodes.add(new NodeHealth(node.hostname(), node.state(), CHECKING, "An on-demand check is running"));
            } else {
                nodes.add(node);
            }
        }
        Set<String> listed = stored.stream().map(NodeHealth::hostname).collect(Collectors.toSet());
        reservations.nodesLetGo(reservationId).stream()
                .filter(node -> !listed.contains(node))
                .forEach(node -> nodes.add(new NodeHealth(
                        node, null, REPLACED, "Replaced by another node: no longer part of this cluster")));
        return nodes;
    }
}
