package dev.allot.provisioning.driver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.provisioning.LifecycleTest;
import dev.allot.support.Api;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The NCCL all-reduce across a cluster's nodes as one Indexed Kubernetes Job (one pod per node), at acceptance and
 * on demand, against fabric8's mock API server in CRUD mode. The mock runs no pods, so the test plays the
 * scheduler, the Job controller and the kubelet ({@link Kubelet}): it puts each index on a node the Job's affinity
 * names and has rank 0 print a recorded multi-node all_reduce_perf table (the nodes have no GPUs). The Job, its
 * Service and policy, collecting rank 0's log, parsing and the decision are Allot's own.
 */
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class KubernetesMultiNodeAllReduceMockServerTests extends LifecycleTest {

    private static final String POOL =
            "k8s-mn-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 30, 1L << 35), 36);

    private static final List<String> NODES = List.of(POOL + "-gpu-1", POOL + "-gpu-2", POOL + "-gpu-3");

    private static MockKubernetes kubernetes;

    @DynamicPropertySource
    static void kubernetesPool(DynamicPropertyRegistry registry) throws IOException {
        if (kubernetes == null) {
            kubernetes = new MockKubernetes(NODES);
        }
        kubernetes.registerPool(registry, POOL);
        registry.add(
                "allot.provisioning.pools." + POOL + ".kubernetes.check-images.NCCL_ALL_REDUCE",
                () -> "registry.test/nccl-tests-mpi:1");
        registry.add("allot.provisioning.health.multi-node-all-reduce", () -> "true");
        registry.add("allot.provisioning.health.defaults.nccl-bus-bandwidth-gbps", () -> "400");
        registry.add("allot.provisioning.health.defaults.nccl-multi-node-bus-bandwidth-gbps", () -> "150");
        registry.add("allot.provisioning.health.check-timeout", () -> "PT20S");
    }

    @AfterAll
    static void stop() throws InterruptedException {
        kubernetes.close();
    }

    @Test
    void acceptanceEndsWithOneIndexedJobAcrossTheNodesAndOnDemandASlowAllReduceWhoseNodesPassAloneDegradesTheCluster() {
        Setup s = namedPool(POOL, NODES);
        Instant start = hour(2);
        String id = bookAndAwaitSchedule(s, 16, start, hour(3), "KUBERNETES");
        List<String> booked = api.get(path(s, id), s.token())
                .json()
                .get("nodes")
                .valueStream()
                .map(JsonNode::asString)
                .toList();
        kubernetes.kubelet.record("default.NVIDIA_SMI", "nvidia-smi-h100-healthy.txt");
        kubernetes.kubelet.record("default.NCCL_ALL_REDUCE", "nccl-all-reduce-h100-8.txt");
        kubernetes.kubelet.record("across", "nccl-all-reduce-h100-2x8.txt");

        runDueAt(start.minus(Duration.ofMinutes(15)));

        JsonNode ready = cluster(s, id);
        assertThat(ready.get("state").asString()).as(ready.toString()).isEqualTo("READY");
        assertThat(details(ready))
                .contains("NCCL_ALL_REDUCE: average bus bandwidth 264.21 GB/s (threshold 150.00 GB/s for " + s.gpuType()
                        + " multi-node) across " + String.join(", ", booked) + ".");
        Job across = kubernetes.kubelet.jobs.stream()
                .filter(job -> "Indexed".equals(job.getSpec().getCompletionMode()))
                .findFirst()
                .orElseThrow();
        String name = across.getMetadata().getName();
        assertThat(across.getSpec().getCompletions()).isEqualTo(2);
        assertThat(across.getSpec().getParallelism()).isEqualTo(2);
        assertThat(across.getSpec().getBackoffLimit()).isZero();
        assertThat(across.getSpec().getActiveDeadlineSeconds()).isEqualTo(20);
        PodSpec pod = across.getSpec().getTemplate().getSpec();
        assertThat(pod.getAffinity()
                        .getNodeAffinity()
                        .getRequiredDuringSchedulingIgnoredDuringExecution()
                        .getNodeSelectorTerms()
                        .getFirst()
                        .getMatchExpressions()
                        .getFirst()
                        .getValues())
                .containsExactlyElementsOf(booked);
        assertThat(pod.getAffinity()
                        .getPodAntiAffinity()
                        .getRequiredDuringSchedulingIgnoredDuringExecution()
                        .getFirst()
                        .getTopologyKey())
                .isEqualTo("kubernetes.io/hostname");
        assertThat(pod.getSubdomain()).isEqualTo(name);
        assertThat(pod.getTolerations()).extracting(Toleration::getKey).contains("nvidia.com/gpu");
        assertThat(pod.getContainers().getFirst().getImage()).isEqualTo("registry.test/nccl-tests-mpi:1");
        assertThat(pod.getContainers().getFirst().getCommand())
                .startsWith("all_reduce_perf")
                .endsWith("-g", "8");
        assertThat(pod.getContainers()
                        .getFirst()
                        .getResources()
                        .getLimits()
                        .get("nvidia.com/gpu")
                        .getAmount())
                .isEqualTo("8");
        assertThat(pod.getContainers().getFirst().getEnv())
                .extracting(EnvVar::getName, EnvVar::getValue)
                .contains(Tuple.tuple("ALLOT_NODES", "2"), Tuple.tuple("ALLOT_RANK0_HOST", name + "-0." + name));
        String namespace = across.getMetadata().getNamespace();
        assertThat(kubernetes
                        .client
                        .batch()
                        .v1()
                        .jobs()
                        .inNamespace(namespace)
                        .withName(name)
                        .get())
                .isNull();
        assertThat(kubernetes
                        .client
                        .services()
                        .inNamespace(namespace)
                        .withName(name)
                        .get())
                .isNull();
        assertThat(kubernetes
                        .client
                        .network()
                        .v1()
                        .networkPolicies()
                        .inNamespace(namespace)
                        .withName(name)
                        .get())
                .isNull();

        assertThat(api.post(
                                path(s, id) + "/health-checks",
                                s.token(),
                                Map.of("kind", "NVIDIA_SMI", "acrossNodes", true))
                        .status())
                .isEqualTo(400);

        // on demand: the fabric between the nodes slows down, each node alone is as fast as ever
        kubernetes.kubelet.record("across", "nccl-all-reduce-h100-2x8-slow.txt");
        Api.Response asked = api.post(
                path(s, id) + "/health-checks", s.token(), Map.of("kind", "NCCL_ALL_REDUCE", "acrossNodes", true));
        assertThat(asked.status()).as(asked.body()).isEqualTo(202);
        assertThat(asked.json().get("acrossNodes").asBoolean()).isTrue();
        runDueAt(start.minus(Duration.ofMinutes(14)));

        JsonNode check = api.get(asked.header("Location"), s.token()).json();
        assertThat(check.get("status").asString()).as(check.toString()).isEqualTo("FAILED");
        JsonNode job = check.get("acrossNodesResult");
        assertThat(job.get("passed").asBoolean()).isFalse();
        assertThat(job.get("nodes").valueStream().map(JsonNode::asString)).containsExactlyElementsOf(booked);
        assertThat(job.get("summary").asString())
                .isEqualTo("all_reduce_perf failed: average bus bandwidth 80.43 GB/s " + "is below the " + s.gpuType()
                        + " multi-node threshold of 150.00 GB/s");
        assertThat(job.get("output").asString()).contains("# Avg bus bandwidth    : 80.430");
        assertThat(check.get("results")
                        .valueStream()
                        .map(r ->
                                r.get("node").asString() + " " + r.get("passed").asBoolean()))
                .containsExactlyInAnyOrder(booked.get(0) + " true", booked.get(1) + " true");
        assertThat(check.get("detail").asString())
                .endsWith("each node passed it alone: the fault lies between them (network, switch, cabling)");
        JsonNode degraded = cluster(s, id);
        assertThat(degraded.get("state").asString()).isEqualTo("DEGRADED");
        assertThat(degraded.get("stateReason").asString())
                .startsWith("A health check failed on " + String.join(", ", booked)
                        + " together (NCCL_ALL_REDUCE: all_reduce_perf failed: average bus bandwidth 80.43 GB/s");

        // the fabric is mended: the same check passes and the cluster is READY again
        kubernetes.kubelet.record("across", "nccl-all-reduce-h100-2x8.txt");
        Api.Response again = api.post(
                path(s, id) + "/health-checks", s.token(), Map.of("kind", "NCCL_ALL_REDUCE", "acrossNodes", true));
        runDueAt(start.minus(Duration.ofMinutes(13)));
        JsonNode passed = api.get(again.header("Location"), s.token()).json();
        assertThat(passed.get("status").asString()).as(passed.toString()).isEqualTo("PASSED");
        assertThat(passed.get("results").valueStream().map(r -> r.get("summary").asString()))
                .allMatch(summary -> summary.startsWith("took part in the all-reduce across "
                        + String.join(", ", booked) + ", which passed: average bus bandwidth 264.21 GB/s"));
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("READY");

        runDueAt(hour(3));
        assertThat(cluster(s, id).get("state").asString()).isEqualTo("DELETED");
    }

    private static List<String> details(JsonNode cluster) {
        return cluster.get("timeline")
                .valueStream()
                .map(e -> e.get("detail").asString())
                .toList();
    }
}
