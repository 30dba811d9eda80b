package dev.allot.provisioning.driver.kubernetes;

import static dev.allot.provisioning.driver.kubernetes.Names.*;

import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterRef;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;

/**
 * The booked {@code /dev/shm}, enforced: a ValidatingAdmissionPolicy (GA since Kubernetes 1.30; a mutating policy
 * that could add the volume is still alpha) bound to the reservation's namespace only, which refuses any pod
 * without a memory-backed {@code emptyDir} of exactly the booked size mounted at {@code /dev/shm} in every
 * container and init container. Both objects are cluster-scoped, so the tenant (who holds a namespaced Role) cannot
 * change them, and deleting the namespace does not take them along: teardown deletes them by name.
 */
final class SharedMemoryPolicy {

    static final String PREFIX = "allot-shm-";

    private SharedMemoryPolicy() {}

    static String name(ClusterRef ref) {
        return PREFIX + ref.reservationId();
    }

    /** The CEL that names the pod's volumes that qualify: memory-backed, exactly {@code size}. */
    static String shmVolumes(String size) {
        return "has(object.spec.volumes) ? object.spec.volumes.filter(v, has(v.emptyDir) && has(v.emptyDir.medium)"
                + " && v.emptyDir.medium == 'Memory' && has(v.emptyDir.sizeLimit)"
                + " && quantity(string(v.emptyDir.sizeLimit)).compareTo(quantity('" + size + "')) == 0)"
                + ".map(v, v.name) : []";
    }

    static final String MOUNTED = "c, has(c.volumeMounts) && c.volumeMounts.exists(m, m.mountPath == '/dev/shm'"
            + " && m.name in variables.shm)";

    static ValidatingAdmissionPolicy policy(ClusterBlueprint spec) {
        String size = spec.sharedMemoryGi() + "Gi";
        return new ValidatingAdmissionPolicyBuilder()
                .withNewMetadata()
                .withName(name(spec.ref()))
                .withLabels(Map.of(
                        MANAGED_BY,
                        "allot",
                        TENANT,
                        spec.tenant(),
                        RESERVATION,
                        spec.reservationId().toString(),
                        SHARED_MEMORY,
                        size))
                .endMetadata()
                .withNewSpec()
                .withFailurePolicy("Fail")
                .withNewMatchConstraints()
                .addNewResourceRule()
                .withApiGroups("")
                .withApiVersions("v1")
                .withOperations("CREATE", "UPDATE")
                .withResources("pods")
                .endResourceRule()
                .endMatchConstraints()
                .addNewVariable()
                .withName("shm")
                .withExpression(shmVolumes(size))
                .endVariable()
                .addNewValidation()
                .withExpression("object.spec.containers.all(" + MOUNTED + ") && (!has(object.spec.initContainers)"
                        + " || object.spec.initContainers.all(" + MOUNTED + "))")
                .withMessage("Every container of a pod in " + spec.ref().name() + " must mount at /dev/shm an emptyDir"
                        + " volume with medium: Memory and sizeLimit: " + size + " (the shared memory booked); see"
                        + " ConfigMap " + DEFAULTS + ", key pod-defaults.yaml")
                .withReason("Forbidden")
                .endValidation()
                .endSpec()
                .build();
    }

    static ValidatingAdmissionPolicyBinding binding(ClusterBlueprint spec) {
        return NamespacePolicies.binding(
                name(spec.ref()),
                Map.of(
                        MANAGED_BY,
                        "allot",
                        TENANT,
                        spec.tenant(),
                        RESERVATION,
                        spec.reservationId().toString()),
                spec.ref().name());
    }

    /** Which of the two is missing, for the cluster's status. */
    static List<String> missing(KubernetesClient client, ClusterRef ref) {
        return NamespacePolicies.missing(client, name(ref));
    }

    /** Idempotent: deleting what is already gone is fine. */
    static void delete(KubernetesClient client, ClusterRef ref) {
        NamespacePolicies.delete(client, name(ref));
    }
}
