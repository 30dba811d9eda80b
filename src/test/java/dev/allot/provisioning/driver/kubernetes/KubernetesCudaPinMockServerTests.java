package dev.allot.provisioning.driver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.booking.spec.ClusterSpec.Orchestrator;
import dev.allot.provisioning.Specs;
import dev.allot.provisioning.driver.BuildStep;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterStatus;
import dev.allot.provisioning.driver.DriverProperties.KubernetesPool;
import dev.allot.provisioning.driver.NodesUnavailableException;
import dev.allot.provisioning.driver.ProvisionedCluster;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The booked CUDA driver pinned in a reservation's namespace, against fabric8's mock Kubernetes API server in CRUD
 * mode: the namespace's PodNodeSelector annotation and a ValidatingAdmissionPolicy bound to that namespace alone,
 * both requiring {@code nvidia.com/cuda.driver.major}; nodes running another driver are refused.
 */
@EnableKubernetesMockClient(crud = true)
class KubernetesCudaPinMockServerTests {

    static KubernetesClient client;

    private KubernetesDriver driver;

    private TokenController tokens;

    @BeforeEach
    void nodesAndDriver() {
        node("gpu-550", "550");
        node("gpu-535", "535");
        node("gpu-unlabelled", null);
        tokens = new TokenController(client);
        driver = new KubernetesDriver(
                "h100", client, new KubernetesPool(null, null, null, null, Duration.ofSeconds(10)));
    }

    @AfterEach
    void stopTokens() throws InterruptedException {
        tokens.close();
    }

    @Test
    void theNamespaceSelectsTheBookedDriverAndAnAdmissionPolicyBoundToItRefusesPodsWithoutIt() {
        ClusterBlueprint spec = Specs.kubernetes(List.of("gpu-550"));
        String ns = spec.ref().name();
        String pin = "allot-cuda-" + spec.reservationId();

        ProvisionedCluster cluster = driver.provision(spec);

        assertThat(client.namespaces().withName(ns).get().getMetadata().getAnnotations())
                .containsEntry(
                        "scheduler.alpha.kubernetes.io/node-selector",
                        "allot.dev/reservation=" + spec.reservationId() + ",nvidia.com/cuda.driver.major=550");
        ValidatingAdmissionPolicy policy = client.admissionRegistration()
                .v1()
                .validatingAdmissionPolicies()
                .withName(pin)
                .get();
        assertThat(policy.getSpec().getFailurePolicy()).isEqualTo("Fail");
        assertThat(policy.getSpec().getMatchConstraints().getResourceRules())
                .singleElement()
                .satisfies(rule -> {
                    assertThat(rule.getResources()).containsExactly("pods");
                    assertThat(rule.getOperations()).containsExactly("CREATE");
                });
        assertThat(policy.getSpec().getValidations())
                .singleElement()
                .satisfies(validation -> assertThat(validation.getExpression())
                        .isEqualTo(
                                "has(object.spec.nodeSelector) && 'nvidia.com/cuda.driver.major' in object.spec.nodeSelector"
                                        + " && object.spec.nodeSelector['nvidia.com/cuda.driver.major'] == '550'"));
        ValidatingAdmissionPolicyBinding binding = client.admissionRegistration()
                .v1()
                .validatingAdmissionPolicyBindings()
                .withName(pin)
                .get();
        assertThat(binding.getSpec().getPolicyName()).isEqualTo(pin);
        assertThat(binding.getSpec().getValidationActions()).containsExactly("Deny");
        assertThat(binding.getSpec().getMatchResources().getNamespaceSelector().getMatchLabels())
                .containsExactlyEntriesOf(Map.of("kubernetes.io/metadata.name", ns));
        assertThat(cluster.steps())
                .extracting(BuildStep::line)
                .contains(
                        "Nodes gpu-550 carry nvidia.com/cuda.driver.major=550 for CUDA driver 550.54.15 (see: kubectl get "
                                + "nodes gpu-550 -L nvidia.com/cuda.driver.major).")
                .anySatisfy(line -> assertThat(line)
                        .startsWith("ValidatingAdmissionPolicy " + pin)
                        .endsWith("(see: kubectl get validatingadmissionpolicy,validatingadmissionpolicybinding " + pin
                                + " -o yaml)."))
                .anySatisfy(line -> assertThat(line)
                        .startsWith("Namespace " + ns + " applied with node selector")
                        .endsWith("(see: kubectl get namespace " + ns + " -o yaml)."))
                .noneSatisfy(line -> assertThat(line).containsIgnoringCase("shm"));
        assertThat(driver.status(spec.ref()).phase()).isEqualTo(ClusterStatus.Phase.READY);

        client.admissionRegistration()
                .v1()
                .validatingAdmissionPolicyBindings()
                .withName(pin)
                .delete();
        assertThat(driver.status(spec.ref()).missing()).containsExactly("ValidatingAdmissionPolicy/" + pin);

        driver.teardown(spec.ref());
        assertThat(client.admissionRegistration()
                        .v1()
                        .validatingAdmissionPolicies()
                        .withName(pin)
                        .get())
                .isNull();
        assertThat(client.admissionRegistration()
                        .v1()
                        .validatingAdmissionPolicyBindings()
                        .withName(pin)
                        .get())
                .isNull();
    }

    @Test
    void nodesRunningAnotherDriverOrNoneAreRefusedBeforeAnythingIsCreated() {
        ClusterBlueprint spec = Specs.kubernetes(List.of("gpu-550", "gpu-535", "gpu-unlabelled"));

        assertThatThrownBy(() -> driver.provision(spec)).isInstanceOfSatisfying(NodesUnavailableException.class, ex -> {
            assertThat(ex.nodes()).containsExactly("gpu-535", "gpu-unlabelled");
            assertThat(ex.retryable()).isFalse();
            assertThat(ex.getMessage())
                    .contains(
                            "nvidia.com/cuda.driver.major=550",
                            "gpu-535 (nvidia.com/cuda.driver.major=535)",
                            "gpu-unlabelled (nvidia.com/cuda.driver.major=none)");
        });
        assertThat(client.namespaces().withName(spec.ref().name()).get()).isNull();
        assertThat(client.admissionRegistration()
                        .v1()
                        .validatingAdmissionPolicies()
                        .list()
                        .getItems())
                .isEmpty();
        assertThat(client.nodes().withName("gpu-550").get().getMetadata().getLabels())
                .doesNotContainKey("allot.dev/reservation");
    }

    @Test
    void aReplacementNodeRunningAnotherDriverIsRefused() {
        ClusterBlueprint spec = Specs.kubernetes(List.of("gpu-550"));
        driver.provision(spec);

        assertThatThrownBy(() -> driver.addNodes(spec.ref(), List.of("gpu-535")))
                .isInstanceOfSatisfying(
                        NodesUnavailableException.class,
                        ex -> assertThat(ex.nodes()).containsExactly("gpu-535"));
        assertThat(client.nodes().withName("gpu-535").get().getMetadata().getLabels())
                .doesNotContainKey("allot.dev/reservation");
        driver.teardown(spec.ref());
    }

    @Test
    void aDriverOf535SelectsAndRequiresTheMajorVersion535() {
        ClusterBlueprint asked = Specs.kubernetes(List.of("gpu-535"));
        ClusterBlueprint spec = new ClusterBlueprint(
                asked.reservationId(),
                asked.tenant(),
                asked.project(),
                asked.nodes(),
                asked.gpusPerNode(),
                asked.startsAt(),
                asked.endsAt(),
                Orchestrator.KUBERNETES,
                "535.104.05",
                asked.sharedMemoryGi(),
                List.of(),
                asked.sshPublicKeys());

        driver.provision(spec);

        assertThat(client.admissionRegistration()
                        .v1()
                        .validatingAdmissionPolicies()
                        .withName("allot-cuda-" + spec.reservationId())
                        .get()
                        .getSpec()
                        .getValidations()
                        .getFirst()
                        .getExpression())
                .endsWith("== '535'");
        driver.teardown(spec.ref());
    }

    private static void node(String name, String major) {
        NodeBuilder node = new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels("kubernetes.io/hostname", name)
                .endMetadata();
        if (major != null) {
            node.editMetadata()
                    .addToLabels("nvidia.com/cuda.driver.major", major)
                    .endMetadata();
        }
        client.nodes()
                .resource(node.withNewStatus()
                        .addNewCondition()
                        .withType("Ready")
                        .withStatus("True")
                        .endCondition()
                        .endStatus()
                        .build())
                .createOr(op -> op.update());
    }
}
