package dev.allot.provisioning.driver.kubernetes;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * fabric8's mock API server in CRUD mode with expectations beside it (for what CRUD mode lacks: pod logs,
 * evictions), Ready GPU nodes tainted {@code nvidia.com/gpu} running CUDA driver 550, and the controllers it lacks played by the test
 * ({@link TokenController}, {@link Kubelet}). A pool reaches it through a kubeconfig file, as in production.
 */
final class MockKubernetes implements AutoCloseable {

    final KubernetesMockServer server;

    final KubernetesClient client;

    final Kubelet kubelet;

    private final TokenController tokens;

    MockKubernetes(List<String> nodes) {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        server = new KubernetesMockServer(
                new Context(), new MockWebServer(), responses, new KubernetesMixedDispatcher(responses), false);
        server.init();
        client = server.createClient();
        for (String name : nodes) {
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(name)
                            .addToLabels("kubernetes.io/hostname", name)
                            .addToLabels("nvidia.com/cuda.driver.major", "550")
                            .endMetadata()
                            .withNewSpec()
                            .addNewTaint()
                            .withKey("nvidia.com/gpu")
                            .withEffect("NoSchedule")
                            .endTaint()
                            .endSpec()
                            .withNewStatus()
                            .addNewCondition()
                            .withType("Ready")
                            .withStatus("True")
                            .endCondition()
                            .endStatus()
                            .build())
                    .create();
        }
        tokens = new TokenController(client);
        kubelet = new Kubelet(server, client);
    }

    /** Configures {@code pool} with the Kubernetes driver on this server. */
    void registerPool(DynamicPropertyRegistry registry, String pool) throws IOException {
        Path kubeconfig = Files.createTempFile("allot-mock", ".kubeconfig");
        Files.writeString(kubeconfig, """
				apiVersion: v1
				kind: Config
				clusters: [{name: mock, cluster: {server: "%s"}}]
				users: [{name: allot, user: {token: "allot-admin-token"}}]
				contexts: [{name: mock, context: {cluster: mock, user: allot}}]
				current-context: mock
				""".formatted(client.getMasterUrl()));
        String prefix = "allot.provisioning.pools." + pool;
        registry.add(prefix + ".driver", () -> "kubernetes");
        registry.add(prefix + ".kubernetes.kubeconfig", kubeconfig::toString);
        registry.add(prefix + ".kubernetes.token-wait", () -> "10s");
    }

    @Override
    public void close() throws InterruptedException {
        kubelet.close();
        tokens.close();
        client.close();
        server.destroy();
    }
}
