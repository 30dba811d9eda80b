package dev.allot.provisioning.driver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.provisioning.LifecycleTest;
import dev.allot.support.Api;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The whole lifecycle against fabric8's Kubernetes mock API server in CRUD mode: a pool configured with the
 * Kubernetes driver (through a kubeconfig file, as in production), a booking on two of its nodes, the namespace
 * and the claimed nodes while the window lasts, acceptance checks as Jobs answered by a played kubelet, the tenant's kubeconfig from the API, and nothing after it.
 * Its application context (with the pool configured for it) serves no other class and is closed afterwards.
 */
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class KubernetesMockServerLifecycleTests extends LifecycleTest {

    private static final String POOL =
            "k8s-e2e-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 30, 1L << 35), 36);

    private static final List<String> NODES = List.of(POOL + "-gpu-1", POOL + "-gpu-2");

    private static MockKubernetes kubernetes;

    @DynamicPropertySource
    static void kubernetesPool(DynamicPropertyRegistry registry) throws IOException {
        if (kubernetes == null) {
            kubernetes = new MockKubernetes(NODES);
        }
        kubernetes.registerPool(registry, POOL);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        kubernetes.close();
    }

    @Test
    void aKubernetesBookingBecomesANamespaceOnTheMockKubernetesApiWithAKubeconfigAndIsGoneAfterItsWindow() {
        Setup s = tenantOnThePool();
        Instant start = hour(2);
        Instant end = hour(3);
        String id = bookAndAwaitSchedule(s, 16, start, end, "KUBERNETES");
        String namespace = "allot-" + id;

        runDueAt(start.minus(Duration.ofMinutes(15)));

        JsonNode ready = cluster(s, id);
        assertThat(ready.get("state").asString()).as(ready.toString()).isEqualTo("READY");
        assertThat(ready.get("endpoints").get("namespace").asString()).isEqualTo(namespace);
        assertThat(ready.get("endpoints").get("apiServer").asString())
                .isEqualTo(kubernetes.client.getMasterUrl().toString());
        assertThat(ready.get("nodes").valueStream().map(n -> n.get("state").asString()))
                .containsOnly("Ready");
        assertThat(kubernetes
                        .client
                        .namespaces()
                        .withName(namespace)
                        .get()
                        .getMetadata()
                        .getLabels())
                .containsEntry("allot.dev/tenant", s.tenant());
        assertThat(kubernetes
                        .client
                        .resourceQuotas()
                        .inNamespace(namespace)
                        .withName("allot-gpu-quota")
                        .get()
                        .getSpec()
                        .getHard())
                .containsEntry("requests.nvidia.com/gpu", new Quantity("16"));
        for (String node : NODES) {
            assertThat(kubernetes
                            .client
                            .nodes()
                            .withName(node)
                            .get()
                            .getMetadata()
                            .getLabels())
                    .containsEntry("allot.dev/reservation", id);
        }

        Api.Response kubeconfig = api.get(path(s, id) + "/cluster/kubeconfig", s.token());
        assertThat(kubeconfig.status()).as(kubeconfig.body()).isEqualTo(200);
        assertThat(kubeconfig.contentType()).startsWith("application/yaml");
        assertThat(kubeconfig.header("Cache-Control")).contains("no-store");
        assertThat(kubeconfig.body()).contains("namespace: " + namespace, "token: \"token-of-" + namespace + "\"");
        assertThat(jdbc.sql("SELECT count(*) FROM cluster WHERE endpoints::text LIKE '%token-of-%'")
                        .query(Long.class)
                        .single())
                .isZero();
        assertThat(ready.get("nodes").valueStream().map(n -> n.get("health").asString()))
                .containsOnly("PASSED");
        assertThat(kubernetes.kubelet.jobs).hasSize(NODES.size());

        runDueAt(end);

        JsonNode deleted = cluster(s, id);
        System.out.printf(
                "Lifecycle on the %s: provision step %d ms, teardown step %d ms%n",
                "mock Kubernetes API",
                took(deleted, "provision").toMillis(),
                took(deleted, "teardown").toMillis());
        assertThat(deleted.get("state").asString()).as(deleted.toString()).isEqualTo("DELETED");
        assertThat(kubernetes.client.namespaces().withName(namespace).get()).isNull();
        for (String node : NODES) {
            assertThat(kubernetes
                            .client
                            .nodes()
                            .withName(node)
                            .get()
                            .getMetadata()
                            .getLabels())
                    .doesNotContainKey("allot.dev/reservation");
        }
        assertThat(api.get(path(s, id) + "/cluster/kubeconfig", s.token()).status())
                .isEqualTo(409);
    }

    @Test
    void sshKeysAreRefusedOnAKubernetesPoolWhenQuotingAndBookingAndNothingIsWritten() {
        Setup s = tenantOnThePool();
        Map<String, Object> body = Map.of(
                "project",
                "training",
                "pool",
                POOL,
                "gpus",
                8,
                "startsAt",
                hour(30).toString(),
                "endsAt",
                hour(31).toString(),
                "cluster",
                Map.of("orchestrator", "KUBERNETES", "sshPublicKeys", List.of(SSH_KEY)));

        Api.Response quote = api.post("/api/v1/tenants/" + s.tenant() + "/quotes", s.token(), body);
        Api.Response booking = api.post("/api/v1/tenants/" + s.tenant() + "/reservations", s.token(), body);

        for (Api.Response refused : List.of(quote, booking)) {
            assertThat(refused.status()).as(refused.body()).isEqualTo(400);
            assertThat(refused.contentType()).startsWith("application/problem+json");
            JsonNode error = refused.json().get("errors").get(0);
            assertThat(error.get("field").asString()).isEqualTo("cluster.sshPublicKeys");
            assertThat(error.get("message").asString()).contains("kubeconfig");
        }
        assertThat(jdbc.sql("SELECT count(*) FROM reservation WHERE tenant_slug = ?")
                        .param(s.tenant())
                        .query(Long.class)
                        .single())
                .isZero();
    }

    private static String gpuType;

    /** A new tenant on the pool, which the first test to ask creates. */
    private Setup tenantOnThePool() {
        if (gpuType == null) {
            Setup s = namedPool(POOL, NODES);
            gpuType = s.gpuType();
            return s;
        }
        return setup(2, NODES, POOL, gpuType);
    }
}
