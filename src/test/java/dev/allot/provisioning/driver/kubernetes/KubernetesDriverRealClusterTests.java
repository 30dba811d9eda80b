package dev.allot.provisioning.driver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.booking.spec.ClusterSpec.Orchestrator;
import dev.allot.provisioning.Specs;
import dev.allot.provisioning.driver.ClusterAccess;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterStatus;
import dev.allot.provisioning.driver.DriverProperties.KubernetesPool;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * The Kubernetes adapter against a real cluster: runs only when {@code KUBECONFIG} is set (skipped otherwise).
 * It labels and taints one node for a minute ({@code ALLOT_TEST_K8S_NODE}, default: the first node) and
 * restores it; the token comes from the cluster's own token controller.
 */
@EnabledIfEnvironmentVariable(named = "KUBECONFIG", matches = ".+")
class KubernetesDriverRealClusterTests {

    @Test
    void aRealClusterGetsAnIsolatedNamespaceWhoseKubeconfigReachesOnlyThatNamespaceAndTheNodeIsRestored() {
        Path kubeconfig = Path.of(System.getenv("KUBECONFIG").split(":")[0]);
        try (KubernetesDriver driver = KubernetesDriver.connect(
                        "real", new KubernetesPool(kubeconfig, null, null, null, Duration.ofSeconds(60)));
                KubernetesClient admin = new KubernetesClientBuilder()
                        .withConfig(Config.fromKubeconfig(kubeconfig.toFile()))
                        .build()) {
            String nodeName = System.getenv()
                    .getOrDefault(
                            "ALLOT_TEST_K8S_NODE",
                            admin.nodes()
                                    .list()
                                    .getItems()
                                    .getFirst()
                                    .getMetadata()
                                    .getName());
            Node before = admin.nodes().withName(nodeName).get();
            ClusterBlueprint spec = Specs.spec(Orchestrator.KUBERNETES, List.of(nodeName), Instant.now(), List.of());
            try {
                ClusterAccess.Kubernetes access =
                        (ClusterAccess.Kubernetes) driver.provision(spec).access();
                assertThat(driver.status(spec.ref()).phase()).isEqualTo(ClusterStatus.Phase.READY);

                try (KubernetesClient tenant = new KubernetesClientBuilder()
                        .withConfig(Config.fromKubeconfig(access.kubeconfig()))
                        .build()) {
                    assertThat(tenant.pods()
                                    .inNamespace(access.namespace())
                                    .list()
                                    .getItems())
                            .isEmpty();
                    assertThatThrownBy(
                                    () -> tenant.pods().inNamespace("default").list())
                            .isInstanceOfSatisfying(
                                    KubernetesClientException.class,
                                    ex -> assertThat(ex.getCode()).isEqualTo(403));
                }
            } finally {
                driver.teardown(spec.ref());
            }
            Node after = admin.nodes().withName(nodeName).get();
            assertThat(after.getMetadata().getLabels())
                    .isEqualTo(before.getMetadata().getLabels());
            assertThat(after.getSpec().getTaints()).isEqualTo(before.getSpec().getTaints());
            assertThat(driver.status(spec.ref()).phase())
                    .isIn(ClusterStatus.Phase.DELETING, ClusterStatus.Phase.ABSENT);
        }
    }
}
