package dev.allot.provisioning.driver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.booking.ReservationLifecycle;
import dev.allot.provisioning.LifecycleTest;
import dev.allot.provisioning.lifecycle.ClusterReconciler;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The reconciler removing a node from a live Kubernetes cluster, against fabric8's mock API server in CRUD mode (no
 * real Kubernetes API runs here): a reservation's allocation moves from one node to another, and the reconciler
 * releases the node it no longer holds (its claim label gone) and claims the new one, which passes acceptance as a
 * Job answered by the played kubelet. Its application context serves no other class.
 */
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class KubernetesReconcilerMockServerTests extends LifecycleTest {

    private static final String POOL =
            "k8s-rec-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 30, 1L << 35), 36);

    private static final List<String> NODES = List.of(POOL + "-gpu-1", POOL + "-gpu-2", POOL + "-gpu-3");

    private static final String CLAIM = "allot.dev/reservation";

    private static MockKubernetes kubernetes;

    @Autowired
    ClusterReconciler reconciler;

    @Autowired
    ReservationLifecycle lifecycle;

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

    private String claimOf(String node) {
        return kubernetes
                .client
                .nodes()
                .withName(node)
                .get()
                .getMetadata()
                .getLabels()
                .get(CLAIM);
    }

    @Test
    void theReconcilerTakesANodeTheReservationNoLongerHoldsOutOfTheLiveClusterOnTheMockKubernetesApi() {
        Setup s = namedPool(POOL, NODES);
        Instant start = hour(2);
        String id = bookAndAwaitSchedule(s, 16, start, hour(3), "KUBERNETES");
        runDueAt(start.minus(Duration.ofMinutes(15)));
        JsonNode ready = cluster(s, id);
        assertThat(ready.get("state").asString()).as(ready.toString()).isEqualTo("READY");
        List<String> held = NODES.stream().filter(n -> id.equals(claimOf(n))).toList();
        assertThat(held).hasSize(2);
        String leaving = held.getFirst();

        String joining = lifecycle
                .replaceNode(UUID.fromString(id), leaving, List.of(leaving))
                .orElseThrow();
        ClusterReconciler.Reconciled done = reconciler.reconcile(UUID.fromString(id), Duration.ZERO);

        assertThat(done.outcome()).isEqualTo(ClusterReconciler.Outcome.CHANGED);
        assertThat(done.removed()).containsExactly(leaving);
        assertThat(done.added()).containsExactly(joining);
        assertThat(claimOf(leaving)).isNull();
        assertThat(claimOf(joining)).isEqualTo(id);
        assertThat(claimOf(held.get(1))).isEqualTo(id);
        JsonNode after = cluster(s, id);
        assertThat(after.get("state").asString()).isEqualTo("READY");
        assertThat(after.get("nodes")
                        .valueStream()
                        .filter(n -> n.get("hostname").asString().equals(joining))
                        .map(n -> n.get("health").asString()))
                .containsExactly("PASSED");

        runDueAt(hour(3));
        assertThat(NODES.stream().map(this::claimOf)).containsOnlyNulls();
    }
}
