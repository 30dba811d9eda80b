package dev.allot.provisioning.driver.kubernetes;

import static dev.allot.provisioning.driver.kubernetes.Names.DRIVER_MAJOR_NODE_LABEL;
import static dev.allot.provisioning.driver.kubernetes.Names.MANAGED_BY;
import static dev.allot.provisioning.driver.kubernetes.Names.RESERVATION;

import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterRef;
import dev.allot.provisioning.driver.NodesUnavailableException;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Pins a cluster's CUDA driver on Kubernetes: its nodes must carry the booked major version in
 * {@code nvidia.com/cuda.driver.major} (set by NVIDIA GPU feature discovery), the namespace's
 * {@code scheduler.alpha.kubernetes.io/node-selector} adds that label to every pod where the PodNodeSelector
 * admission plugin runs, and a ValidatingAdmissionPolicy bound to the namespace alone refuses any pod created
 * without it (ValidatingAdmissionPolicy is GA since Kubernetes 1.30). Both cluster-scoped objects are named
 * {@code allot-cuda-<reservation id>} and deleted at teardown.
 */
final class CudaDriverPin {

    static final String NODE_SELECTOR_ANNOTATION = "scheduler.alpha.kubernetes.io/node-selector";

    private final KubernetesClient client;

    CudaDriverPin(KubernetesClient client) {
        this.client = client;
    }

    static String name(ClusterRef ref) {
        return "allot-cuda-" + ref.reservationId();
    }

    /** The namespace's node selector: the reservation's nodes, with the booked driver. */
    static String nodeSelector(ClusterBlueprint spec) {
        return RESERVATION + "=" + spec.reservationId() + "," + DRIVER_MAJOR_NODE_LABEL + "=" + spec.cudaDriverMajor();
    }

    /** Refuses (not retryable) nodes that do not run the booked driver's major version. */
    void requireOnNodes(ClusterBlueprint spec) {
        requireOnNodes(spec.nodes(), spec.cudaDriver());
    }

    /** The same for nodes joining a cluster (a replacement), {@code cudaDriver} as booked. */
    void requireOnNodes(List<String> nodes, String cudaDriver) {
        String major = ClusterBlueprint.majorOf(cudaDriver);
        List<String> lacking = new ArrayList<>();
        List<String> why = new ArrayList<>();
        for (String name : nodes) {
            Node node = client.nodes().withName(name).get();
            Map<String, String> labels =
                    node == null ? null : node.getMetadata().getLabels();
            String carried = labels == null ? null : labels.get(DRIVER_MAJOR_NODE_LABEL);
            if (!major.equals(carried)) {
                lacking.add(name);
                why.add(name + " (" + DRIVER_MAJOR_NODE_LABEL + "=" + (carried == null ? "none" : carried) + ")");
            }
        }
        if (!lacking.isEmpty()) {
            throw new NodesUnavailableException(
                    lacking,
                    "CUDA driver " + cudaDriver + " needs node label "
                            + DRIVER_MAJOR_NODE_LABEL + "=" + major + ", which " + String.join(", ", why)
                            + " does not carry (NVIDIA GPU feature discovery sets it)");
        }
    }

    ValidatingAdmissionPolicy policy(ClusterBlueprint spec) {
        String key = DRIVER_MAJOR_NODE_LABEL;
        String major = spec.cudaDriverMajor();
        return new ValidatingAdmissionPolicyBuilder()
                .withNewMetadata()
                .withName(name(spec.ref()))
                .addToLabels(MANAGED_BY, "allot")
                .addToLabels(RESERVATION, spec.reservationId().toString())
                .endMetadata()
                .withNewSpec()
                .withFailurePolicy("Fail")
                .withNewMatchConstraints()
                .addNewResourceRule()
                .withApiGroups("")
                .withApiVersions("v1")
                .withOperations("CREATE")
                .withResources("pods")
                .endResourceRule()
                .endMatchConstraints()
                .addNewValidation()
                .withExpression("has(object.spec.nodeSelector) && '" + key + "' in object.spec.nodeSelector && "
                        + "object.spec.nodeSelector['" + key + "'] == '" + major + "'")
                .withMessage("This reservation's cluster runs CUDA driver " + spec.cudaDriver() + ": every pod needs "
                        + "nodeSelector " + key + ": \"" + major + "\"")
                .withReason("Forbidden")
                .endValidation()
                .endSpec()
                .build();
    }

    /** Binds the policy to the reservation's namespace only ({@code kubernetes.io/metadata.name} is set by the API server). */
    ValidatingAdmissionPolicyBinding binding(ClusterBlueprint spec) {
        return NamespacePolicies.binding(
                name(spec.ref()),
                Map.of(MANAGED_BY, "allot", RESERVATION, spec.reservationId().toString()),
                spec.ref().name());
    }

    boolean present(ClusterRef ref) {
        return NamespacePolicies.missing(client, name(ref)).isEmpty();
    }

    void remove(ClusterRef ref) {
        NamespacePolicies.delete(client, name(ref));
    }
}
