package dev.allot.provisioning;

import dev.allot.provisioning.lifecycle.Cluster;
import dev.allot.provisioning.lifecycle.ClusterRepository;
import dev.allot.provisioning.lifecycle.NodeHealthNow;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Why a reservation's cluster serves {@code DEGRADED}, and what is being done about each node at fault: as the
 * cluster section reads its nodes now (quarantined with the reason, rebooting, being checked, failed its check). The
 * caller has read the reservations through booking, which decides who may see them.
 */
@Service
@Transactional(readOnly = true)
public class Degradations {

    /** The node health words that say nothing is wrong with a node. */
    private static final Set<String> FINE = Set.of("PASSED", "NOT_CHECKED", "REPLACED");

    /** A degraded cluster: why, and its nodes at fault. */
    public record Degradation(UUID reservationId, @Nullable String reason, List<NodeAtFault> nodes) {}

    /**
     * A node at fault and what is being done: {@code QUARANTINED} (out of service, waiting for a node to take its
     * place), {@code REBOOTING} (checked again once back), {@code CHECKING}, or {@code FAILED} (its last check).
     */
    public record NodeAtFault(
            String hostname, String health, @Nullable String detail) {}

    private final ClusterRepository clusters;

    private final NodeHealthNow healthNow;

    Degradations(ClusterRepository clusters, NodeHealthNow healthNow) {
        this.clusters = clusters;
        this.healthNow = healthNow;
    }

    /** The degraded ones among these reservations' clusters, by reservation. */
    public Map<UUID, Degradation> of(Collection<UUID> reservationIds) {
        Map<UUID, Degradation> degraded = new LinkedHashMap<>();
        for (Cluster cluster : clusters.degraded(reservationIds)) {
            List<NodeAtFault> nodes = healthNow.of(cluster.reservationId(), cluster.nodes()).stream()
                    .filter(node -> !FINE.contains(node.health()))
                    .map(node -> new NodeAtFault(node.hostname(), node.health(), node.detail()))
                    .toList();
            degraded.put(
                    cluster.reservationId(), new Degradation(cluster.reservationId(), cluster.stateReason(), nodes));
        }
        return degraded;
    }
}
