package dev.allot.provisioning.driver.kubernetes;

import static dev.allot.provisioning.driver.kubernetes.Names.DRIVER_MAJOR_NODE_LABEL;
import static dev.allot.provisioning.driver.kubernetes.Names.RESERVATION;

import dev.allot.provisioning.driver.BuildStep;
import dev.allot.provisioning.driver.ClusterBlueprint;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** What {@link KubernetesDriver#provision} applied, each with the {@code kubectl} command that shows it. */
final class KubernetesBuildSteps {

    private KubernetesBuildSteps() {}

    static List<BuildStep> of(ClusterBlueprint spec, List<HasMetadata> converged, List<HasMetadata> createdOnce) {
        String ns = spec.ref().name();
        String nodes = String.join(",", spec.nodes());
        String pin = CudaDriverPin.name(spec.ref());
        List<BuildStep> steps = new ArrayList<>();
        steps.add(new BuildStep(
                "Nodes " + nodes + " carry " + DRIVER_MAJOR_NODE_LABEL + "=" + spec.cudaDriverMajor()
                        + " for CUDA driver " + spec.cudaDriver(),
                "kubectl get nodes " + String.join(" ", spec.nodes()) + " -L " + DRIVER_MAJOR_NODE_LABEL));
        steps.add(new BuildStep(
                "Namespace " + ns + " applied with node selector " + CudaDriverPin.nodeSelector(spec) + " ("
                        + CudaDriverPin.NODE_SELECTOR_ANNOTATION + ") and Pod Security baseline",
                "kubectl get namespace " + ns + " -o yaml"));
        steps.add(new BuildStep(
                "ValidatingAdmissionPolicy " + pin + " and its binding to namespace " + ns
                        + " applied: pods without nodeSelector " + DRIVER_MAJOR_NODE_LABEL + "="
                        + spec.cudaDriverMajor()
                        + " are refused",
                "kubectl get validatingadmissionpolicy,validatingadmissionpolicybinding " + pin + " -o yaml"));
        steps.add(new BuildStep(
                "Applied in " + ns + ": " + kinds(converged),
                "kubectl -n " + ns + " get resourcequota,limitrange,networkpolicy,role,rolebinding,configmap"));
        steps.add(new BuildStep(
                "Created in " + ns + " unless present: " + kinds(createdOnce),
                "kubectl -n " + ns + " get serviceaccount,secret,persistentvolumeclaim"));
        steps.add(new BuildStep(
                "Nodes " + nodes + " labelled and tainted " + RESERVATION + "=" + spec.reservationId() + ":NoSchedule",
                "kubectl get nodes -l " + RESERVATION + "=" + spec.reservationId()));
        return steps;
    }

    private static String kinds(List<HasMetadata> resources) {
        return resources.stream()
                .map(r -> r.getKind() + "/" + r.getMetadata().getName())
                .collect(Collectors.joining(", "));
    }
}
