package dev.allot.provisioning.driver.kubernetes;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What every admission policy Allot puts on a reservation's namespace shares: a binding of the same name that
 * denies, scoped to that namespace only ({@code kubernetes.io/metadata.name} is set by the API server), and the
 * read and removal of the pair. Both objects are cluster-scoped, so the tenant cannot change them.
 */
final class NamespacePolicies {

    private NamespacePolicies() {}

    static ValidatingAdmissionPolicyBinding binding(String name, Map<String, String> labels, String namespace) {
        return new ValidatingAdmissionPolicyBindingBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .withPolicyName(name)
                .withValidationActions("Deny")
                .withNewMatchResources()
                .withNewNamespaceSelector()
                .addToMatchLabels("kubernetes.io/metadata.name", namespace)
                .endNamespaceSelector()
                .endMatchResources()
                .endSpec()
                .build();
    }

    /** Which of the policy and its binding is missing. */
    static List<String> missing(KubernetesClient client, String name) {
        var registration = client.admissionRegistration().v1();
        List<String> missing = new ArrayList<>();
        if (registration.validatingAdmissionPolicies().withName(name).get() == null) {
            missing.add("ValidatingAdmissionPolicy/" + name);
        }
        if (registration.validatingAdmissionPolicyBindings().withName(name).get() == null) {
            missing.add("ValidatingAdmissionPolicyBinding/" + name);
        }
        return missing;
    }

    /** Idempotent: deleting what is already gone is fine. */
    static void delete(KubernetesClient client, String name) {
        var registration = client.admissionRegistration().v1();
        registration.validatingAdmissionPolicyBindings().withName(name).delete();
        registration.validatingAdmissionPolicies().withName(name).delete();
    }
}
