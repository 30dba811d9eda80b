package dev.allot.provisioning.driver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.provisioning.LifecycleTest;
import dev.allot.support.Api;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
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
 * Acceptance and on-demand checks as Kubernetes Jobs, through the whole lifecycle, against fabric8's mock API
 * server in CRUD mode. The mock runs no pods, so the test plays the Job controller and kubelet ({@link Kubelet}):
 * it answers each check Job with a pod that ends as the recorded output of the real tool says (the nodes have no
 * GPUs), and serves that output as the pod's log. The Job, its pinning, collecting the log, parsing, the decision,
 * replacement and remediation are Allot's own.
 */
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class KubernetesHealthCheckMockServerTests extends LifecycleTest {

    private static final String POOL =
            "k8s-hc-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 30, 1L << 35), 36);

    private static final List<String> NODES =
            List.of(POOL + "-gpu-1", POOL + "-gpu-2", POOL + "-gpu-3", POOL + "-gpu-4");

    /** Short enough for the hung check to end soon, long enough for the played kubelet on a loaded machine. */
    private static final String CHECK_TIMEOUT = "PT8S";

    private static MockKubernetes kubernetes;

    @DynamicPropertySource
    static void kubernetesPool(DynamicPropertyRegistry registry) throws IOException {
        if (kubernetes == null) {
            kubernetes = new MockKubernetes(NODES);
        }
        kubernetes.registerPool(registry, POOL);
        registry.add(
                "allot.provisioning.pools." + POOL + ".kubernetes.check-images.NVIDIA_SMI",
                () -> "registry.test/gpu-checks:1");
        registry.add("allot.provisioning.health.check-timeout", () -> CHECK_TIMEOUT);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        kubernetes.close();
    }

    @Test
    void checksRunAsJobsPinnedToTheirNodesOnTheMockKubernetesApiAFailedNodeIsReplacedAndAHungCheckFails() {
        Setup s = namedPool(POOL, NODES);
        Instant start = hour(2);
        String id = bookAndAwaitSchedule(s, 16, start, hour(3), "KUBERNETES");
        List<String> booked = api.get(path(s, id), s.token())
                .json()
                .get("nodes")
                .valueStream()
                .map(JsonNode::asString)
                .toList();
        String good = booked.get(0);
        String bad = booked.get(1);
        kubernetes.kubelet.record("default", "nvidia-smi-h100-healthy.txt");
        kubernetes.kubelet.record(bad, "nvidia-smi-h100-ecc-xid79.txt");

        // acceptance: the bad node fails and a free node takes its place before handover
        runDueAt(start.minus(Duration.ofMinutes(15)));

        JsonNode ready = cluster(s, id);
        assertThat(ready.get("state").asString()).as(ready.toString()).isEqualTo("READY");
        String spare = ready.get("nodes")
                .valueStream()
                .filter(n -> !n.get("health").asString().equals("REPLACED"))
                .map(n -> n.get("hostname").asString())
                .filter(n -> !n.equals(good))
                .findFirst()
                .orElseThrow();
        assertThat(spare).isNotEqualTo(bad);
        assertThat(ready.get("nodes")
                        .valueStream()
                        .map(n -> n.get("hostname").asString() + " "
                                + n.get("health").asString()))
                .containsExactlyInAnyOrder(good + " PASSED", spare + " PASSED", bad + " REPLACED");
        assertThat(ready.get("timeline").valueStream().map(e -> e.get("detail").asString()))
                .anyMatch(d -> d.startsWith(
                        bad + " failed acceptance (NVIDIA_SMI: nvidia-smi failed: GPU 3: 2 uncorrected ECC"))
                .anyMatch(d -> d.endsWith("replaced by " + spare + " before handover."));
        assertThat(kubernetes.client.nodes().withName(spare).get().getMetadata().getLabels())
                .containsEntry("allot.dev/reservation", id);
        assertThat(kubernetes.client.nodes().withName(bad).get().getMetadata().getLabels())
                .doesNotContainKey("allot.dev/reservation");

        // each check was a Job pinned to its node, tolerating the node's taints, bounded, in the maintenance namespace;
        // the bad node's failed check ran a second time (it failed again: the fault stands as printed)
        List<Job> acceptance = List.copyOf(kubernetes.kubelet.jobs);
        assertThat(acceptance)
                .extracting(job -> job.getSpec().getTemplate().getSpec().getNodeName())
                .containsExactlyInAnyOrder(good, bad, bad, spare);
        for (Job job : acceptance) {
            PodSpec pod = job.getSpec().getTemplate().getSpec();
            Node node = kubernetes.client.nodes().withName(pod.getNodeName()).get();
            assertThat(job.getMetadata().getNamespace()).isEqualTo("allot-maintenance");
            assertThat(job.getSpec().getActiveDeadlineSeconds())
                    .isEqualTo(Duration.parse(CHECK_TIMEOUT).toSeconds());
            assertThat(job.getSpec().getBackoffLimit()).isZero();
            assertThat(pod.getRestartPolicy()).isEqualTo("Never");
            assertThat(pod.getContainers().getFirst().getImage()).isEqualTo("registry.test/gpu-checks:1");
            assertThat(pod.getContainers().getFirst().getCommand()).first().isEqualTo("sh");
            assertThat(pod.getContainers()
                            .getFirst()
                            .getResources()
                            .getLimits()
                            .get("nvidia.com/gpu")
                            .getAmount())
                    .isEqualTo("8");
            assertThat(pod.getTolerations()).extracting(Toleration::getKey).contains("nvidia.com/gpu");
            if (!pod.getNodeName().equals(bad)) {
                assertThat(pod.getTolerations())
                        .extracting(Toleration::getKey)
                        .containsAll(node.getSpec().getTaints().stream()
                                .map(t -> t.getKey())
                                .toList());
            }
        }
        assertThat(kubernetes
                        .client
                        .batch()
                        .v1()
                        .jobs()
                        .inAnyNamespace()
                        .withLabel("allot.dev/check")
                        .list()
                        .getItems())
                .as("check Jobs are deleted once read")
                .isEmpty();

        // on demand through the API: the spare now shows an application Xid, a software fault
        kubernetes.kubelet.record(spare, "nvidia-smi-h100-xid13.txt");
        String tenantPod = "train-0";
        kubernetes
                .client
                .pods()
                .inNamespace("allot-" + id)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(tenantPod)
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(spare)
                        .addNewContainer()
                        .withName("t")
                        .withImage("train")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
        // the mock server in CRUD mode has no eviction subresource: it answers as the API server does
        kubernetes
                .server
                .expect()
                .post()
                .withPath("/api/v1/namespaces/allot-" + id + "/pods/" + tenantPod + "/eviction")
                .andReturn(201, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Success\"}")
                .once();
        Api.Response asked = api.post(path(s, id) + "/health-checks", s.token(), Map.of("kind", "NVIDIA_SMI"));
        assertThat(asked.status()).as(asked.body()).isEqualTo(202);
        runDueAt(start.minus(Duration.ofMinutes(14)));

        JsonNode check = api.get(asked.header("Location"), s.token()).json();
        assertThat(check.get("status").asString()).as(check.toString()).isEqualTo("FAILED");
        JsonNode failed = result(check, spare);
        assertThat(failed.get("passed").asBoolean()).isFalse();
        assertThat(failed.get("fault").asString()).isEqualTo("SOFTWARE");
        assertThat(failed.get("output").asString()).contains("NVRM: Xid (PCI:0000:3a:00): 13");
        assertThat(result(check, good).get("passed").asBoolean()).isTrue();
        JsonNode degraded = cluster(s, id);
        assertThat(degraded.get("state").asString()).isEqualTo("DEGRADED");
        // remediation's software tier on Kubernetes: cordon, drain the tenant's pods, ask the provider to reboot
        assertThat(degraded.get("timeline")
                        .valueStream()
                        .map(e ->
                                e.get("step").asString() + " " + e.get("detail").asString()))
                .anyMatch(d -> d.startsWith("remediation Rebooting " + spare + " for a software fault")
                        && d.contains("cordoned " + spare + ", evicted 1 pod, annotated allot.dev/remediation=reboot"));
        Node rebooted = kubernetes.client.nodes().withName(spare).get();
        assertThat(rebooted.getSpec().getUnschedulable()).isTrue();
        assertThat(rebooted.getMetadata().getAnnotations()).containsEntry("allot.dev/remediation", "reboot");

        // a check that hangs: its pod never ends, the Job's deadline passes, the node fails with a clear reason
        kubernetes.kubelet.record(spare, "nvidia-smi-h100-healthy.txt");
        kubernetes.kubelet.hang(good);
        Api.Response hanging = api.post(path(s, id) + "/health-checks", s.token(), Map.of("kind", "NVIDIA_SMI"));
        assertThat(hanging.status()).as(hanging.body()).isEqualTo(202);
        long started = System.nanoTime();
        runDueAt(start.minus(Duration.ofMinutes(13)));
        System.out.printf(
                "A hung check (timeout %s) ended after %d ms%n",
                CHECK_TIMEOUT, (System.nanoTime() - started) / 1_000_000);
        JsonNode hung = api.get(hanging.header("Location"), s.token()).json();
        assertThat(hung.get("status").asString()).as(hung.toString()).isEqualTo("FAILED");
        assertThat(result(hung, good).get("passed").asBoolean()).isFalse();
        assertThat(result(hung, good).get("summary").asString())
                .isEqualTo("NVIDIA_SMI did not finish within " + CHECK_TIMEOUT + ": cancelled (a hang)");
        assertThat(kubernetes
                        .client
                        .batch()
                        .v1()
                        .jobs()
                        .inAnyNamespace()
                        .withLabel("allot.dev/check")
                        .list()
                        .getItems())
                .as("the hung check's Job is deleted")
                .isEmpty();

        runDueAt(hour(3));
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("DELETED");
    }

    private static JsonNode result(JsonNode check, String node) {
        return check.get("results")
                .valueStream()
                .filter(r -> r.get("node").asString().equals(node))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no result for " + node + " in " + check));
    }
}
