package dev.allot.provisioning.driver.kubernetes;

import static dev.allot.provisioning.driver.kubernetes.Names.*;

import dev.allot.provisioning.driver.ClusterDriver;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Kubernetes' counterpart of {@code scontrol reboot}: cordons the node (no new pod lands on it), drains it (evicts
 * the pods of Allot's tenant namespaces, respecting their disruption budgets), and asks the node's provider to
 * reboot or reprovision it with the annotation {@value #REMEDIATION}{@code : reboot}. Kubernetes cannot reboot a
 * machine itself; the provider's controller acts on the annotation, and uncordons the node and removes the
 * annotation when it is back. The node's {@code bootID} (which the kubelet reports anew after every boot) is read
 * first, so that a node the provider hands back without restarting it is not counted back.
 */
final class NodeReboots {

    static final String REMEDIATION = "allot.dev/remediation";

    private final KubernetesClient client;

    NodeReboots(KubernetesClient client) {
        this.client = client;
    }

    ClusterDriver.Reboot reboot(String reservation, String node) {
        String bootId = bootId(client.nodes().withName(node).get());
        client.nodes().withName(node).edit(n -> {
            n.getSpec().setUnschedulable(true);
            if (n.getMetadata().getAnnotations() == null) {
                n.getMetadata().setAnnotations(new LinkedHashMap<>());
            }
            n.getMetadata().getAnnotations().put(REMEDIATION, "reboot");
            n.getMetadata().getAnnotations().put(REMEDIATION + "-for", reservation);
            return n;
        });
        List<String> evicted = new ArrayList<>();
        List<String> blocked = new ArrayList<>();
        for (Namespace namespace : client.namespaces().withLabel(TENANT).list().getItems()) {
            String ns = namespace.getMetadata().getName();
            for (Pod pod : client.pods().inNamespace(ns).list().getItems()) {
                if (node.equals(pod.getSpec().getNodeName()) && !daemonSetPod(pod)) {
                    String name = ns + "/" + pod.getMetadata().getName();
                    (evict(ns, pod.getMetadata().getName()) ? evicted : blocked).add(name);
                }
            }
        }
        return new ClusterDriver.Reboot(
                "cordoned " + node + ", evicted " + evicted.size() + " pod"
                        + (evicted.size() == 1 ? "" : "s")
                        + (blocked.isEmpty() ? "" : " (" + String.join(", ", blocked) + " held by a disruption budget)")
                        + ", annotated " + REMEDIATION + "=reboot for the provider",
                bootId);
    }

    /**
     * Back when the provider has done its part: the node is Ready, uncordoned, the annotation is gone, and it has
     * booted since the reboot was asked (its {@code bootID} is not {@code bootIdBefore}; not compared when either is
     * unknown).
     */
    boolean back(String node, @Nullable String bootIdBefore) {
        Node found = client.nodes().withName(node).get();
        String bootId = bootId(found);
        return found != null
                && "Ready".equals(NodeClaims.readiness(found))
                && !Boolean.TRUE.equals(found.getSpec().getUnschedulable())
                && (found.getMetadata().getAnnotations() == null
                        || !found.getMetadata().getAnnotations().containsKey(REMEDIATION))
                && (bootIdBefore == null || bootId == null || !bootId.equals(bootIdBefore));
    }

    private static @Nullable String bootId(Node node) {
        if (node == null || node.getStatus() == null || node.getStatus().getNodeInfo() == null) {
            return null;
        }
        String id = node.getStatus().getNodeInfo().getBootID();
        return id == null || id.isBlank() ? null : id;
    }

    private static boolean daemonSetPod(Pod pod) {
        return pod.getMetadata().getOwnerReferences() != null
                && pod.getMetadata().getOwnerReferences().stream().anyMatch(o -> "DaemonSet".equals(o.getKind()));
    }

    /** False when a disruption budget refuses it for now. */
    private boolean evict(String namespace, String pod) {
        try {
            return client.pods().inNamespace(namespace).withName(pod).evict();
        } catch (KubernetesClientException ex) {
            if (ex.getCode() != 404) { // gone already
                throw ex;
            }
            return true;
        }
    }
}
