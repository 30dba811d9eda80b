package dev.allot.provisioning.driver.kubernetes;

import static dev.allot.provisioning.driver.kubernetes.Names.*;

import dev.allot.provisioning.driver.ClusterBlueprint;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPortBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.SubjectBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/** The namespaced objects of one reservation, built from its spec; pure, so a retry builds the same ones. */
final class NamespaceResources {

    private final ClusterBlueprint spec;

    private final String ns;

    NamespaceResources(ClusterBlueprint spec) {
        this.spec = spec;
        this.ns = spec.ref().name();
    }

    Namespace namespace() {
        return new NamespaceBuilder()
                .withNewMetadata()
                .withName(ns)
                .withLabels(labels(Map.of(
                        CUDA_DRIVER,
                        spec.cudaDriver(),
                        SHARED_MEMORY,
                        spec.sharedMemoryGi() + "Gi",
                        // Tenants run unprivileged pods only: no host access to nodes that the next tenant gets.
                        "pod-security.kubernetes.io/enforce",
                        "baseline")))
                .withAnnotations(annotations())
                .endMetadata()
                .build();
    }

    private Map<String, String> annotations() {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(GPUS_PER_NODE, Integer.toString(spec.gpusPerNode()));
        annotations.put(
                VOLUMES,
                spec.volumes().stream().map(v -> v.name() + ":" + v.sizeGi()).collect(Collectors.joining(",")));
        annotations.put(WINDOW, spec.startsAt() + "/" + spec.endsAt());
        // Enforced where the PodNodeSelector and PodTolerationRestriction admission plugins are on; the CUDA
        // driver's label is also required by a ValidatingAdmissionPolicy (CudaDriverPin) where they are not.
        annotations.put(CudaDriverPin.NODE_SELECTOR_ANNOTATION, CudaDriverPin.nodeSelector(spec));
        annotations.put(
                "scheduler.alpha.kubernetes.io/defaultTolerations",
                "[{\"key\":\"" + RESERVATION + "\",\"operator\":\"Equal\",\"value\":\"" + spec.reservationId()
                        + "\",\"effect\":\"NoSchedule\"}]");
        return annotations;
    }

    /** Everything inside the namespace that is replaced as a whole when it differs. */
    List<HasMetadata> converged() {
        List<HasMetadata> resources = new ArrayList<>();
        resources.add(quota(spec.totalGpus()));
        resources.add(limits());
        resources.add(networkPolicy());
        resources.add(role());
        resources.add(roleBinding());
        resources.add(defaults());
        return resources;
    }

    /** Created once and then left alone: Kubernetes fills them in (tokens) or refuses changes (volume claims). */
    List<HasMetadata> createdOnce(@Nullable String storageClass) {
        List<HasMetadata> resources = new ArrayList<>();
        resources.add(serviceAccount());
        resources.add(tokenSecret());
        spec.volumes().forEach(volume -> resources.add(claim(volume, storageClass)));
        return resources;
    }

    ResourceQuota quota(int gpus) {
        return new ResourceQuotaBuilder()
                .withNewMetadata()
                .withName(QUOTA)
                .withNamespace(ns)
                .withLabels(labels(Map.of()))
                .endMetadata()
                .withNewSpec()
                // Extended resources are only quotable as requests (limits must equal requests for them).
                .addToHard("requests." + GPU_RESOURCE, new Quantity(Integer.toString(gpus)))
                .endSpec()
                .build();
    }

    private LimitRange limits() {
        Quantity perNode = new Quantity(Integer.toString(spec.gpusPerNode()));
        return new LimitRangeBuilder()
                .withNewMetadata()
                .withName(LIMITS)
                .withNamespace(ns)
                .withLabels(labels(Map.of()))
                .endMetadata()
                .withNewSpec()
                .addNewLimit()
                .withType("Container")
                .addToMax(GPU_RESOURCE, perNode)
                .endLimit()
                .addNewLimit()
                .withType("Pod")
                .addToMax(GPU_RESOURCE, perNode)
                .endLimit()
                .endSpec()
                .build();
    }

    private NetworkPolicy networkPolicy() {
        return new NetworkPolicyBuilder()
                .withNewMetadata()
                .withName(NETWORK_POLICY)
                .withNamespace(ns)
                .withLabels(labels(Map.of()))
                .endMetadata()
                .withNewSpec()
                .withNewPodSelector()
                .endPodSelector()
                .withPolicyTypes("Ingress", "Egress")
                .addNewIngress()
                .withFrom(new NetworkPolicyPeerBuilder()
                        .withNewPodSelector()
                        .endPodSelector()
                        .build())
                .endIngress()
                .addNewEgress()
                .withTo(new NetworkPolicyPeerBuilder()
                        .withNewPodSelector()
                        .endPodSelector()
                        .build())
                .endEgress()
                // Name resolution only, to any namespace: without it nothing in the namespace resolves a service.
                .addNewEgress()
                .withPorts(
                        new NetworkPolicyPortBuilder()
                                .withProtocol("UDP")
                                .withNewPort(53)
                                .build(),
                        new NetworkPolicyPortBuilder()
                                .withProtocol("TCP")
                                .withNewPort(53)
                                .build())
                .endEgress()
                .endSpec()
                .build();
    }

    private Role role() {
        return new RoleBuilder()
                .withNewMetadata()
                .withName(ROLE)
                .withNamespace(ns)
                .withLabels(labels(Map.of()))
                .endMetadata()
                .withRules(
                        new PolicyRuleBuilder()
                                .withApiGroups("", "apps", "batch")
                                .withResources(
                                        "pods",
                                        "pods/log",
                                        "pods/exec",
                                        "pods/portforward",
                                        "services",
                                        "endpoints",
                                        "configmaps",
                                        "secrets",
                                        "persistentvolumeclaims",
                                        "events",
                                        "deployments",
                                        "statefulsets",
                                        "replicasets",
                                        "jobs",
                                        "cronjobs")
                                .withVerbs("get", "list", "watch", "create", "update", "patch", "delete")
                                .build(),
                        new PolicyRuleBuilder()
                                .withApiGroups("")
                                .withResources("resourcequotas", "limitranges")
                                .withVerbs("get", "list", "watch")
                                .build())
                .build();
    }

    private RoleBinding roleBinding() {
        return new RoleBindingBuilder()
                .withNewMetadata()
                .withName(ROLE_BINDING)
                .withNamespace(ns)
                .withLabels(labels(Map.of()))
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", ROLE)
                .withSubjects(
                        new SubjectBuilder()
                                .withKind("ServiceAccount")
                                .withName(SERVICE_ACCOUNT)
                                .withNamespace(ns)
                                .build(),
                        new SubjectBuilder()
                                .withApiGroup("rbac.authorization.k8s.io")
                                .withKind("Group")
                                .withName(tenantGroup(spec.tenant()))
                                .build())
                .build();
    }

    private ConfigMap defaults() {
        String id = spec.reservationId().toString();
        String podDefaults =
                """
				# Pod defaults of reservation %1$s: merge into your pod specs.
				# The nodes are tainted and labelled for this reservation; the driver major version is
				# selected through the label that NVIDIA GPU feature discovery sets.
				nodeSelector:
				  %2$s: "%1$s"
				  %3$s: "%4$s"
				tolerations:
				- key: %2$s
				  operator: Equal
				  value: "%1$s"
				  effect: NoSchedule
				volumes:
				- name: dshm
				  emptyDir:
				    medium: Memory
				    sizeLimit: %5$dGi
				# and in every container:
				# volumeMounts:
				# - name: dshm
				#   mountPath: /dev/shm
				""".formatted(id, RESERVATION, DRIVER_MAJOR_NODE_LABEL, spec.cudaDriverMajor(), spec.sharedMemoryGi());
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(DEFAULTS)
                .withNamespace(ns)
                .withLabels(labels(Map.of()))
                .endMetadata()
                .addToData("cuda-driver", spec.cudaDriver())
                .addToData("shared-memory", spec.sharedMemoryGi() + "Gi")
                .addToData(
                        "node-selector",
                        RESERVATION + "=" + id + "," + DRIVER_MAJOR_NODE_LABEL + "=" + spec.cudaDriverMajor())
                .addToData("pod-defaults.yaml", podDefaults)
                .build();
    }

    private ServiceAccount serviceAccount() {
        return new ServiceAccountBuilder()
                .withNewMetadata()
                .withName(SERVICE_ACCOUNT)
                .withNamespace(ns)
                .withLabels(labels(Map.of()))
                .endMetadata()
                .build();
    }

    /** Long-lived on purpose: the token must last the whole window, which may be weeks. */
    private Secret tokenSecret() {
        return new SecretBuilder()
                .withNewMetadata()
                .withName(TOKEN_SECRET)
                .withNamespace(ns)
                .withLabels(labels(Map.of()))
                .addToAnnotations("kubernetes.io/service-account.name", SERVICE_ACCOUNT)
                .endMetadata()
                .withType("kubernetes.io/service-account-token")
                .build();
    }

    private PersistentVolumeClaim claim(ClusterBlueprint.Volume volume, @Nullable String storageClass) {
        return new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withName(volume.name())
                .withNamespace(ns)
                .withLabels(labels(Map.of()))
                .endMetadata()
                .withNewSpec()
                .withAccessModes("ReadWriteOnce")
                .withStorageClassName(storageClass)
                .withNewResources()
                .addToRequests("storage", new Quantity(volume.sizeGi() + "Gi"))
                .endResources()
                .endSpec()
                .build();
    }

    private Map<String, String> labels(Map<String, String> extra) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(MANAGED_BY, "allot");
        labels.put(TENANT, spec.tenant());
        labels.put(PROJECT, spec.project());
        labels.put(RESERVATION, spec.reservationId().toString());
        labels.putAll(extra);
        return labels;
    }
}
