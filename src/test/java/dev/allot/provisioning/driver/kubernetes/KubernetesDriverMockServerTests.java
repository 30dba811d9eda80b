package dev.allot.provisioning.driver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.provisioning.Specs;
import dev.allot.provisioning.driver.ClusterAccess;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterStatus;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.DriverProperties.KubernetesPool;
import dev.allot.provisioning.driver.HealthCheckJob;
import dev.allot.provisioning.driver.HealthCheckKind;
import dev.allot.provisioning.driver.NodesUnavailableException;
import dev.allot.provisioning.driver.ProvisionedCluster;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSystemInfoBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Kubernetes adapter against fabric8's mock Kubernetes API server in CRUD mode (a stateful fake API server). */
@EnableKubernetesMockClient(crud = true)
class KubernetesDriverMockServerTests {

    static KubernetesMockServer server;

    static KubernetesClient client;

    private KubernetesDriver driver;

    private TokenController tokens;

    @BeforeEach
    void nodesAndDriver() {
        for (String name : List.of("gpu-001", "gpu-002", "gpu-003")) {
            client.nodes().resource(node(name)).createOr(op -> op.update());
        }
        tokens = new TokenController(client);
        driver = new KubernetesDriver(
                "h100", client, new KubernetesPool(null, null, null, "fast-ssd", Duration.ofSeconds(10)));
    }

    @AfterEach
    void stopTokens() throws InterruptedException {
        if (tokens != null) {
            tokens.close();
        }
    }

    @Test
    void provisioningOnTheMockKubernetesApiBuildsAnIsolatedNamespace() {
        ClusterBlueprint spec = Specs.kubernetes(List.of("gpu-001", "gpu-002"));

        long started = System.nanoTime();
        ProvisionedCluster cluster = driver.provision(spec);
        System.out.printf(
                "provision against the mock Kubernetes API: %d ms%n", (System.nanoTime() - started) / 1_000_000);

        String ns = spec.ref().name();
        Namespace namespace = client.namespaces().withName(ns).get();
        assertThat(namespace.getMetadata().getLabels())
                .containsEntry("allot.dev/tenant", spec.tenant())
                .containsEntry("allot.dev/reservation", spec.reservationId().toString())
                .containsEntry("allot.dev/cuda-driver", "550.54.15")
                .containsEntry("allot.dev/shared-memory", "64Gi");
        assertThat(client.resourceQuotas()
                        .inNamespace(ns)
                        .withName("allot-gpu-quota")
                        .get()
                        .getSpec()
                        .getHard())
                .containsEntry("requests.nvidia.com/gpu", new Quantity("16"));
        assertThat(client.limitRanges()
                        .inNamespace(ns)
                        .withName("allot-limits")
                        .get()
                        .getSpec()
                        .getLimits())
                .allSatisfy(limit -> assertThat(limit.getMax()).containsEntry("nvidia.com/gpu", new Quantity("8")));
        NetworkPolicy policy = client.network()
                .v1()
                .networkPolicies()
                .inNamespace(ns)
                .withName("allot-default-deny")
                .get();
        assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress", "Egress");
        assertThat(policy.getSpec().getPodSelector().getMatchLabels()).isNullOrEmpty();
        assertThat(policy.getSpec().getIngress())
                .singleElement()
                .satisfies(rule -> assertThat(rule.getFrom())
                        .singleElement()
                        .satisfies(
                                peer -> assertThat(peer.getNamespaceSelector()).isNull()));
        RoleBinding binding = client.rbac()
                .roleBindings()
                .inNamespace(ns)
                .withName("allot-tenant")
                .get();
        assertThat(binding.getRoleRef().getName()).isEqualTo("allot-tenant");
        assertThat(binding.getSubjects())
                .extracting("kind", "name")
                .containsExactlyInAnyOrder(
                        Tuple.tuple("ServiceAccount", "allot-tenant"),
                        Tuple.tuple("Group", "allot:tenant:" + spec.tenant()));
        assertThat(client.rbac()
                        .roles()
                        .inNamespace(ns)
                        .withName("allot-tenant")
                        .get()
                        .getRules())
                .isNotEmpty();
        assertThat(client.persistentVolumeClaims().inNamespace(ns).list().getItems())
                .extracting(this::claimSummary)
                .containsExactlyInAnyOrder("data 100Gi fast-ssd", "scratch 20Gi fast-ssd");
        assertThat(cluster.volumes())
                .extracting(v -> v.name() + " " + v.seeWith())
                .containsExactlyInAnyOrder(
                        "data kubectl -n " + ns + " get pvc data", "scratch kubectl -n " + ns + " get pvc scratch");
        Map<String, String> defaults = client.configMaps()
                .inNamespace(ns)
                .withName("allot-defaults")
                .get()
                .getData();
        assertThat(defaults).containsEntry("cuda-driver", "550.54.15").containsEntry("shared-memory", "64Gi");
        assertThat(defaults.get("pod-defaults.yaml"))
                .contains(
                        "medium: Memory",
                        "sizeLimit: 64Gi",
                        "nvidia.com/cuda.driver.major: \"550\"",
                        "mountPath: /dev/shm");
        assertThat(cluster.nodes()).containsExactly("gpu-001", "gpu-002");
        for (String name : List.of("gpu-001", "gpu-002")) {
            Node node = client.nodes().withName(name).get();
            assertThat(node.getMetadata().getLabels())
                    .containsEntry("allot.dev/reservation", spec.reservationId().toString())
                    .containsEntry("allot.dev/tenant", spec.tenant());
            assertThat(node.getSpec().getTaints())
                    .extracting(Taint::getKey, Taint::getEffect)
                    .contains(Tuple.tuple("allot.dev/reservation", "NoSchedule"));
        }
        assertThat(client.nodes().withName("gpu-003").get().getMetadata().getLabels())
                .doesNotContainKey("allot.dev/reservation");
    }

    @Test
    void theMockServersTenantKubeconfigIsScopedToTheNamespace() {
        ClusterBlueprint spec = Specs.kubernetes(List.of("gpu-001"));

        ClusterAccess.Kubernetes access =
                (ClusterAccess.Kubernetes) driver.provision(spec).access();

        String ns = spec.ref().name();
        assertThat(access.namespace()).isEqualTo(ns);
        assertThat(access.kubeconfig())
                .contains(
                        "namespace: " + ns,
                        "token: \"token-of-" + ns + "\"",
                        "certificate-authority-data: " + TokenController.CA,
                        "server: \"" + client.getMasterUrl());
        assertThat(access.toString()).doesNotContain("token-of-");
        Config parsed = Config.fromKubeconfig(access.kubeconfig());
        assertThat(parsed.getNamespace()).isEqualTo(ns);
        assertThat(parsed.getAutoOAuthToken()).isEqualTo("token-of-" + ns);
        assertThat(driver.access(spec.ref())).isEqualTo(access);
    }

    @Test
    void provisioningTwiceOnTheMockServerLeavesOneOfEverything() {
        ClusterBlueprint spec = Specs.kubernetes(List.of("gpu-001", "gpu-002"));
        driver.provision(spec);
        List<String> before = inventory(spec);

        long started = System.nanoTime();
        ProvisionedCluster again = driver.provision(spec);
        System.out.printf(
                "provision against the mock Kubernetes API, everything existing: %d ms%n",
                (System.nanoTime() - started) / 1_000_000);

        assertThat(again.nodes()).containsExactly("gpu-001", "gpu-002");
        assertThat(inventory(spec)).isEqualTo(before);
        assertThat(client.nodes().withName("gpu-001").get().getSpec().getTaints())
                .filteredOn(t -> t.getKey().equals("allot.dev/reservation"))
                .hasSize(1);
        assertThat(driver.status(spec.ref()).phase()).isEqualTo(ClusterStatus.Phase.READY);
    }

    @Test
    void provisioningOnTheMockServerCompletesWhatAnInterruptedAttemptLeft() {
        ClusterBlueprint spec = Specs.kubernetes(List.of("gpu-001"));
        driver.provision(spec);
        client.network()
                .v1()
                .networkPolicies()
                .inNamespace(spec.ref().name())
                .withName("allot-default-deny")
                .delete();
        client.persistentVolumeClaims()
                .inNamespace(spec.ref().name())
                .withName("data")
                .delete();
        ClusterStatus broken = driver.status(spec.ref());
        assertThat(broken.phase()).isEqualTo(ClusterStatus.Phase.INCOMPLETE);
        assertThat(broken.missing())
                .containsExactlyInAnyOrder("NetworkPolicy/allot-default-deny", "PersistentVolumeClaim/data");

        driver.provision(spec);

        assertThat(driver.status(spec.ref()).phase()).isEqualTo(ClusterStatus.Phase.READY);
    }

    @Test
    void teardownOnTheMockServerRestoresTheNodesAndRemovesTheNamespaceEvenTwice() {
        Node original = client.nodes().withName("gpu-002").get();
        ClusterBlueprint spec = Specs.kubernetes(List.of("gpu-001", "gpu-002"));
        driver.provision(spec);

        driver.teardown(spec.ref());
        driver.teardown(spec.ref());

        assertThat(client.namespaces().withName(spec.ref().name()).get()).isNull();
        Node restored = client.nodes().withName("gpu-002").get();
        assertThat(restored.getMetadata().getLabels())
                .isEqualTo(original.getMetadata().getLabels());
        assertThat(restored.getSpec().getTaints()).isEqualTo(original.getSpec().getTaints());
        assertThat(driver.status(spec.ref())).isEqualTo(ClusterStatus.absent(spec.ref()));
    }

    @Test
    void aNodeOfAnotherReservationIsRefusedByTheMockServerAndNothingIsCreated() {
        driver.provision(Specs.kubernetes(List.of("gpu-002")));
        ClusterBlueprint second = Specs.kubernetes(List.of("gpu-001", "gpu-002"));

        assertThatThrownBy(() -> driver.provision(second))
                .isInstanceOf(NodesUnavailableException.class)
                .satisfies(ex ->
                        assertThat(((NodesUnavailableException) ex).nodes()).containsExactly("gpu-002"))
                .satisfies(ex -> assertThat(((NodesUnavailableException) ex).retryable())
                        .as("held by another: retried")
                        .isTrue());

        assertThat(client.namespaces().withName(second.ref().name()).get()).isNull();
        assertThat(client.nodes().withName("gpu-001").get().getMetadata().getLabels())
                .doesNotContainKey("allot.dev/reservation");
    }

    @Test
    void aNodeUnknownToTheMockServerIsRefused() {
        assertThatThrownBy(() -> driver.provision(Specs.kubernetes(List.of("gpu-001", "gpu-404"))))
                .isInstanceOf(NodesUnavailableException.class)
                .hasMessageContaining("gpu-404");
    }

    @Test
    void addingAndRemovingNodesOnTheMockServerMovesLabelsAndQuota() {
        ClusterBlueprint spec = Specs.kubernetes(List.of("gpu-001"));
        driver.provision(spec);

        ClusterStatus grown = driver.addNodes(spec.ref(), List.of("gpu-002", "gpu-003"));
        assertThat(grown.nodes()).containsExactlyInAnyOrder("gpu-001", "gpu-002", "gpu-003");
        assertThat(gpuQuota(spec)).isEqualTo(new Quantity("24"));

        ClusterStatus shrunk = driver.removeNodes(spec.ref(), List.of("gpu-001"));
        assertThat(shrunk.nodes()).containsExactlyInAnyOrder("gpu-002", "gpu-003");
        assertThat(gpuQuota(spec)).isEqualTo(new Quantity("16"));
        assertThat(client.nodes().withName("gpu-001").get().getSpec().getTaints())
                .extracting(Taint::getKey)
                .containsExactly("nvidia.com/gpu");
        assertThat(client.nodes().withName("gpu-001").get().getMetadata().getLabels())
                .doesNotContainKeys("allot.dev/reservation", "allot.dev/tenant");
    }

    @Test
    void aRebootedNodeOnTheMockServerIsBackOnlyWhenTheProviderReturnedItAndItBootedSince() {
        ClusterBlueprint spec = Specs.kubernetes(List.of("gpu-002"));
        driver.provision(spec);
        client.nodes().withName("gpu-002").edit(n -> {
            n.getStatus()
                    .setNodeInfo(
                            new NodeSystemInfoBuilder().withBootID("boot-1").build());
            return n;
        });

        ClusterDriver.Reboot reboot = driver.reboot(spec.ref(), "gpu-002");
        assertThat(reboot.mark()).isEqualTo("boot-1");
        assertThat(driver.backFromReboot(spec.ref(), "gpu-002", reboot.mark()))
                .as("cordoned and annotated")
                .isFalse();

        // the provider uncordons the node and removes the annotation, but the kubelet reports the same boot
        client.nodes().withName("gpu-002").edit(n -> {
            n.getSpec().setUnschedulable(false);
            n.getMetadata().getAnnotations().remove("allot.dev/remediation");
            return n;
        });
        assertThat(driver.backFromReboot(spec.ref(), "gpu-002", reboot.mark()))
                .as("not booted since")
                .isFalse();

        client.nodes().withName("gpu-002").edit(n -> {
            n.getStatus().getNodeInfo().setBootID("boot-2");
            return n;
        });
        assertThat(driver.backFromReboot(spec.ref(), "gpu-002", reboot.mark())).isTrue();
    }

    @Test
    void aCheckOnANodeThatIsNotReadyReportsItUnreachableAndCreatesNoJob() {
        assertThat(driver.supportsHealthChecks()).isTrue();
        client.nodes().withName("gpu-003").edit(n -> {
            n.getStatus().getConditions().forEach(c -> c.setStatus("False"));
            return n;
        });
        ClusterBlueprint spec = Specs.kubernetes(List.of("gpu-003"));

        var result = driver.runHealthCheck(check(spec, "gpu-003"));

        assertThat(result.unreachable()).isTrue();
        assertThat(result.output()).isEqualTo("Kubernetes reports gpu-003 is NotReady");
        assertThat(client.batch().v1().jobs().inAnyNamespace().list().getItems())
                .isEmpty();
    }

    @Test
    void aCheckPodLostWithItsNodeIsUnreachableAndOneRefusedForBusyGpusIsAnErrorNotAFaultOfTheNode()
            throws InterruptedException {
        ClusterBlueprint spec = Specs.kubernetes(List.of("gpu-001", "gpu-002"));
        try (Kubelet kubelet = new Kubelet(server, client)) {
            kubelet.failPod("gpu-001", "NodeLost");
            kubelet.failPod("gpu-002", "OutOfnvidia.com/gpu");

            var lost = driver.runHealthCheck(check(spec, "gpu-001"));
            assertThat(lost.unreachable()).isTrue();
            assertThat(lost.output()).startsWith("the check's pod failed with NodeLost");

            assertThatThrownBy(() -> driver.runHealthCheck(check(spec, "gpu-002")))
                    .isInstanceOf(DriverFailedException.class)
                    .hasMessageContaining("OutOfnvidia.com/gpu")
                    .hasMessageContaining("its GPUs are in use");
            assertThat(kubelet.jobs)
                    .extracting(job -> job.getSpec().getTemplate().getSpec().getNodeName())
                    .containsExactly("gpu-001", "gpu-002");
        }
        assertThat(client.batch().v1().jobs().inAnyNamespace().list().getItems())
                .isEmpty();
    }

    private static HealthCheckJob check(ClusterBlueprint spec, String node) {
        return new HealthCheckJob(
                spec.ref(), node, HealthCheckKind.NVIDIA_SMI, List.of("nvidia-smi"), 8, Duration.ofMinutes(1));
    }

    private Quantity gpuQuota(ClusterBlueprint spec) {
        return client.resourceQuotas()
                .inNamespace(spec.ref().name())
                .withName("allot-gpu-quota")
                .get()
                .getSpec()
                .getHard()
                .get("requests.nvidia.com/gpu");
    }

    private List<String> inventory(ClusterBlueprint spec) {
        String ns = spec.ref().name();
        return Stream.of(
                        client.resourceQuotas().inNamespace(ns).list().getItems(),
                        client.limitRanges().inNamespace(ns).list().getItems(),
                        client.network()
                                .v1()
                                .networkPolicies()
                                .inNamespace(ns)
                                .list()
                                .getItems(),
                        client.rbac().roles().inNamespace(ns).list().getItems(),
                        client.rbac().roleBindings().inNamespace(ns).list().getItems(),
                        client.configMaps().inNamespace(ns).list().getItems(),
                        client.serviceAccounts().inNamespace(ns).list().getItems(),
                        client.secrets().inNamespace(ns).list().getItems(),
                        client.persistentVolumeClaims().inNamespace(ns).list().getItems())
                .flatMap(List::stream)
                .map(r -> ((HasMetadata) r).getKind() + "/"
                        + ((HasMetadata) r).getMetadata().getName())
                .sorted()
                .toList();
    }

    private String claimSummary(PersistentVolumeClaim claim) {
        return claim.getMetadata().getName() + " "
                + claim.getSpec().getResources().getRequests().get("storage") + " "
                + claim.getSpec().getStorageClassName();
    }

    static Node node(String name) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels("kubernetes.io/hostname", name)
                .addToLabels("nvidia.com/cuda.driver.major", "550")
                .endMetadata()
                .withNewSpec()
                .addNewTaint()
                .withKey("nvidia.com/gpu")
                .withValue("present")
                .withEffect("NoSchedule")
                .endTaint()
                .endSpec()
                .withNewStatus()
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .endCondition()
                .endStatus()
                .build();
    }
}
