package dev.allot.provisioning.driver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.booking.spec.ClusterSpec.Orchestrator;
import dev.allot.provisioning.Specs;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterStatus;
import dev.allot.provisioning.driver.DriverProperties.KubernetesPool;
import dev.allot.provisioning.driver.HealthCheckJob;
import dev.allot.provisioning.driver.HealthCheckKind;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The booked /dev/shm as an admission policy, against fabric8's mock Kubernetes API server in CRUD mode. */
@EnableKubernetesMockClient(crud = true)
class KubernetesSharedMemoryMockServerTests {

    static KubernetesClient client;

    static KubernetesMockServer server;

    private KubernetesDriver driver;

    private TokenController tokens;

    @BeforeEach
    void nodesAndDriver() {
        for (String name : List.of("gpu-001", "gpu-002")) {
            client.nodes().resource(KubernetesDriverMockServerTests.node(name)).createOr(op -> op.update());
        }
        tokens = new TokenController(client);
        driver = new KubernetesDriver(
                "h100", client, new KubernetesPool(null, null, null, null, Duration.ofSeconds(10)));
    }

    @AfterEach
    void stopTokens() throws InterruptedException {
        tokens.close();
    }

    @Test
    void theMockServerHoldsAPolicyBoundToTheNamespaceThatDemandsTheBookedShm() {
        ClusterBlueprint spec = Specs.kubernetes(List.of("gpu-001"));

        driver.provision(spec);

        String name = "allot-shm-" + spec.reservationId();
        ValidatingAdmissionPolicy policy = client.admissionRegistration()
                .v1()
                .validatingAdmissionPolicies()
                .withName(name)
                .get();
        assertThat(policy.getSpec().getFailurePolicy()).isEqualTo("Fail");
        assertThat(policy.getSpec().getMatchConstraints().getResourceRules())
                .singleElement()
                .satisfies(rule -> {
                    assertThat(rule.getResources()).containsExactly("pods");
                    assertThat(rule.getOperations()).containsExactly("CREATE", "UPDATE");
                });
        assertThat(policy.getSpec().getVariables())
                .singleElement()
                .satisfies(v -> assertThat(v.getExpression())
                        .contains(
                                "v.emptyDir.medium == 'Memory'",
                                "quantity(string(v.emptyDir.sizeLimit)).compareTo(quantity('64Gi')) == 0"));
        assertThat(policy.getSpec().getValidations()).singleElement().satisfies(v -> {
            assertThat(v.getExpression())
                    .contains(
                            "object.spec.containers.all(",
                            "object.spec.initContainers.all(",
                            "m.mountPath == '/dev/shm' && m.name in variables.shm");
            assertThat(v.getMessage()).contains("sizeLimit: 64Gi", spec.ref().name());
        });
        ValidatingAdmissionPolicyBinding binding = client.admissionRegistration()
                .v1()
                .validatingAdmissionPolicyBindings()
                .withName(name)
                .get();
        assertThat(binding.getSpec().getPolicyName()).isEqualTo(name);
        assertThat(binding.getSpec().getValidationActions()).containsExactly("Deny");
        assertThat(binding.getSpec().getMatchResources().getNamespaceSelector().getMatchLabels())
                .containsExactly(
                        Map.entry("kubernetes.io/metadata.name", spec.ref().name()));
        assertThat(driver.status(spec.ref()).phase()).isEqualTo(ClusterStatus.Phase.READY);
    }

    @Test
    void aMissingPolicyOnTheMockServerLeavesTheClusterIncompleteAndAnotherProvisionRestoresIt() {
        ClusterBlueprint spec = Specs.kubernetes(List.of("gpu-001"));
        driver.provision(spec);
        String name = "allot-shm-" + spec.reservationId();
        client.admissionRegistration()
                .v1()
                .validatingAdmissionPolicies()
                .withName(name)
                .delete();

        ClusterStatus status = driver.status(spec.ref());

        assertThat(status.phase()).isEqualTo(ClusterStatus.Phase.INCOMPLETE);
        assertThat(status.missing()).containsExactly("ValidatingAdmissionPolicy/" + name);
        driver.provision(spec);
        assertThat(driver.status(spec.ref()).phase()).isEqualTo(ClusterStatus.Phase.READY);
    }

    @Test
    void teardownOnTheMockServerDeletesThisReservationsPolicyOnly() {
        ClusterBlueprint torn = Specs.kubernetes(List.of("gpu-001"));
        ClusterBlueprint kept = Specs.kubernetes(List.of("gpu-002"));
        driver.provision(torn);
        driver.provision(kept);

        driver.teardown(torn.ref());
        driver.teardown(torn.ref());

        var registration = client.admissionRegistration().v1();
        String tornName = "allot-shm-" + torn.reservationId();
        String keptName = "allot-shm-" + kept.reservationId();
        assertThat(registration.validatingAdmissionPolicies().list().getItems())
                .extracting(p -> p.getMetadata().getName())
                .contains(keptName)
                .doesNotContain(tornName);
        assertThat(registration.validatingAdmissionPolicyBindings().list().getItems())
                .extracting(p -> p.getMetadata().getName())
                .contains(keptName)
                .doesNotContain(tornName);
    }

    @Test
    void aCheckJobInTheReservationsNamespaceOnTheMockServerMountsTheBookedShmSoThePolicyAdmitsIt()
            throws InterruptedException {
        ClusterBlueprint spec = Specs.spec(
                Orchestrator.KUBERNETES,
                List.of("gpu-001"),
                Instant.now().minus(Duration.ofHours(1)).truncatedTo(ChronoUnit.HOURS),
                List.of());
        driver.provision(spec);
        try (Kubelet kubelet = new Kubelet(server, client)) {
            kubelet.record("gpu-001", "nvidia-smi-h100-healthy.txt");

            driver.runHealthCheck(new HealthCheckJob(
                    spec.ref(),
                    "gpu-001",
                    HealthCheckKind.NVIDIA_SMI,
                    List.of("nvidia-smi"),
                    8,
                    Duration.ofMinutes(1)));

            var job = kubelet.jobs.getLast();
            assertThat(job.getMetadata().getNamespace()).isEqualTo(spec.ref().name());
            var pod = job.getSpec().getTemplate().getSpec();
            assertThat(pod.getVolumes()).singleElement().satisfies(v -> {
                assertThat(v.getEmptyDir().getMedium()).isEqualTo("Memory");
                assertThat(v.getEmptyDir().getSizeLimit()).isEqualTo(new Quantity("64Gi"));
                assertThat(pod.getContainers().getFirst().getVolumeMounts())
                        .singleElement()
                        .satisfies(m ->
                                assertThat(m.getName() + " " + m.getMountPath()).isEqualTo(v.getName() + " /dev/shm"));
            });
        }
    }
}
