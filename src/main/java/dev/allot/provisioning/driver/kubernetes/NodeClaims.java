package dev.allot.provisioning.driver.kubernetes;

import static dev.allot.provisioning.driver.kubernetes.Names.RESERVATION;
import static dev.allot.provisioning.driver.kubernetes.Names.TENANT;

import dev.allot.provisioning.driver.ClusterRef;
import dev.allot.provisioning.driver.NodesUnavailableException;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Dedicates nodes to a reservation with a label and a {@code NoSchedule} taint, both keyed under
 * {@code allot.dev/}, and gives them back by removing exactly those: whatever else the node carries is left
 * as it was, so restoring needs no saved copy.
 */
final class NodeClaims {

    private final KubernetesClient client;

    NodeClaims(KubernetesClient client) {
        this.client = client;
    }

    /** Refuses nodes that do not exist or are another reservation's; called before anything is created. */
    void check(ClusterRef ref, List<String> nodes) {
        List<String> unknown = new ArrayList<>();
        List<String> heldByOthers = new ArrayList<>();
        for (String name : nodes) {
            Node node = client.nodes().withName(name).get();
            if (node == null) {
                unknown.add(name);
            } else if (heldByOther(node, ref)) {
                heldByOthers.add(name);
            }
        }
        if (!unknown.isEmpty()) {
            throw new NodesUnavailableException(unknown, "no such node in the cluster");
        }
        if (!heldByOthers.isEmpty()) {
            throw NodesUnavailableException.heldByAnother(heldByOthers, "dedicated to another reservation");
        }
    }

    /** Labels and taints the nodes; re-checks each one as it edits it, for a concurrent claim. */
    void claim(ClusterRef ref, List<String> nodes) {
        for (String name : nodes) {
            client.nodes().withName(name).edit(node -> {
                if (heldByOther(node, ref)) {
                    throw NodesUnavailableException.heldByAnother(List.of(name), "dedicated to another reservation");
                }
                prepare(node);
                node.getMetadata().getLabels().put(TENANT, ref.tenant());
                node.getMetadata()
                        .getLabels()
                        .put(RESERVATION, ref.reservationId().toString());
                List<Taint> taints = withoutOurTaint(node);
                taints.add(taint(ref));
                node.getSpec().setTaints(taints);
                return node;
            });
        }
    }

    /** Restores the given nodes if they are this reservation's; others are not touched. */
    void release(ClusterRef ref, List<String> nodes) {
        for (String name : nodes) {
            Node node = client.nodes().withName(name).get();
            if (node != null
                    && ref.reservationId().toString().equals(labels(node).get(RESERVATION))) {
                restore(name);
            }
        }
    }

    /** Restores every node that still carries this reservation's label. */
    void releaseAll(ClusterRef ref) {
        claimed(ref).forEach(node -> restore(node.getMetadata().getName()));
    }

    List<Node> claimed(ClusterRef ref) {
        return client.nodes()
                .withLabel(RESERVATION, ref.reservationId().toString())
                .list()
                .getItems();
    }

    private void restore(String name) {
        client.nodes().withName(name).edit(node -> {
            prepare(node);
            node.getMetadata().getLabels().remove(TENANT);
            node.getMetadata().getLabels().remove(RESERVATION);
            node.getSpec().setTaints(withoutOurTaint(node));
            return node;
        });
    }

    static String readiness(Node node) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return "Unknown";
        }
        return node.getStatus().getConditions().stream()
                .filter(c -> "Ready".equals(c.getType()))
                .map(NodeCondition::getStatus)
                .map(status -> "True".equals(status) ? "Ready" : "NotReady")
                .findFirst()
                .orElse("Unknown");
    }

    private static boolean heldByOther(Node node, ClusterRef ref) {
        String holder = labels(node).get(RESERVATION);
        return holder != null && !holder.equals(ref.reservationId().toString());
    }

    private static Map<String, String> labels(Node node) {
        Map<String, String> labels = node.getMetadata().getLabels();
        return labels == null ? new LinkedHashMap<>() : labels;
    }

    private static void prepare(Node node) {
        if (node.getMetadata().getLabels() == null) {
            node.getMetadata().setLabels(new LinkedHashMap<>());
        }
        if (node.getSpec() == null) {
            node.setSpec(new NodeSpec());
        }
    }

    private static List<Taint> withoutOurTaint(Node node) {
        List<Taint> taints = node.getSpec().getTaints() == null
                ? new ArrayList<>()
                : new ArrayList<>(node.getSpec().getTaints());
        taints.removeIf(t -> RESERVATION.equals(t.getKey()));
        return taints;
    }

    private static Taint taint(ClusterRef ref) {
        return new TaintBuilder()
                .withKey(RESERVATION)
                .withValue(ref.reservationId().toString())
                .withEffect("NoSchedule")
                .build();
    }
}
