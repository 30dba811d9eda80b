package dev.allot.provisioning.driver.kubernetes;

import static dev.allot.provisioning.driver.kubernetes.Names.*;

import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.HealthCheckResult;
import dev.allot.provisioning.driver.MultiNodeCheckJob;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A check across several nodes as one Indexed batch/v1 Job, one pod per node: {@code completions} =
 * {@code parallelism} = the number of nodes, each pod held to the nodes by a required node affinity on
 * {@code kubernetes.io/hostname} and kept apart by a required pod anti-affinity, tolerating every taint of those
 * nodes, with all of a node's GPUs. The pods find each other through a headless Service of the Job's name (each pod
 * is {@code <job>-<index>.<job>}) and a NetworkPolicy that lets them reach one another; each gets
 * {@code ALLOT_NODES} (how many), {@code ALLOT_RANK0_HOST} (index 0's address) and Kubernetes' own
 * {@code JOB_COMPLETION_INDEX} (its rank). The image's entry point starts the ranks (nccl-tests' all_reduce_perf
 * built with MPI, as on Slurm); only rank 0 prints the table, so Allot reads the log of the pod of index 0.
 * Bounded by the Job's {@code activeDeadlineSeconds}; the Job, its pods, the Service and the policy are deleted
 * afterwards.
 */
final class MultiNodeCheckJobs {

    private static final Logger log = LoggerFactory.getLogger(MultiNodeCheckJobs.class);

    /** Set by the Job controller on the pods of an Indexed Job. */
    static final String COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index";

    static final String CHECK_JOB = "allot.dev/check-job";

    private final KubernetesClient client;

    private final CheckJobs checks;

    MultiNodeCheckJobs(KubernetesClient client, CheckJobs checks) {
        this.client = client;
        this.checks = checks;
    }

    HealthCheckResult run(MultiNodeCheckJob check) {
        long started = System.nanoTime();
        String target = String.join(",", check.nodes());
        Map<String, Node> nodes = new LinkedHashMap<>();
        List<String> down = new ArrayList<>();
        for (String name : check.nodes()) {
            Node node = client.nodes().withName(name).get();
            if (node == null || !"Ready".equals(NodeClaims.readiness(node))) {
                down.add("Kubernetes reports " + name + " "
                        + (node == null ? "does not exist" : "is " + NodeClaims.readiness(node)));
            }
            nodes.put(name, node);
        }
        if (!down.isEmpty()) {
            return unreachable(check, target, String.join("; ", down), started);
        }
        String namespace = checks.namespaceFor(check.ref());
        String name = jobName(check);
        remove(namespace, name); // a leftover of an interrupted attempt
        createPeering(namespace, name);
        client.batch()
                .v1()
                .jobs()
                .inNamespace(namespace)
                .resource(job(check, nodes.values().stream().toList(), name, checks.sharedMemoryIn(namespace)))
                .create();
        try {
            return awaitEnd(check, target, namespace, name, started);
        } finally {
            remove(namespace, name);
        }
    }

    private HealthCheckResult awaitEnd(
            MultiNodeCheckJob check, String target, String namespace, String name, long started) {
        long deadline = started + check.timeout().plusSeconds(5).toNanos();
        while (System.nanoTime() < deadline) {
            Job job = client.batch()
                    .v1()
                    .jobs()
                    .inNamespace(namespace)
                    .withName(name)
                    .get();
            if (job == null) {
                return unreachable(check, target, "the check's Job " + name + " was deleted while it ran", started);
            }
            if (CheckJobs.deadlineExceeded(job)) {
                break;
            }
            List<Pod> pods = client.pods()
                    .inNamespace(namespace)
                    .withLabel("job-name", name)
                    .list()
                    .getItems();
            HealthCheckResult lostPod = lostPod(check, target, pods, started);
            if (lostPod != null) {
                return lostPod;
            }
            List<String> lost = check.nodes().stream()
                    .filter(node -> !checks.nodeReady(node))
                    .toList();
            if (!lost.isEmpty()) {
                return unreachable(
                        check, target, String.join(", ", lost) + " stopped being Ready during the check", started);
            }
            if (pods.size() >= check.nodes().size() && pods.stream().allMatch(MultiNodeCheckJobs::ended)) {
                Pod first = pods.stream()
                        .min(Comparator.comparingInt(MultiNodeCheckJobs::index))
                        .orElseThrow();
                int exit = pods.stream()
                        .mapToInt(pod -> CheckJobs.exitCode(
                                pod, "Succeeded".equals(pod.getStatus().getPhase()) ? 0 : 1))
                        .filter(code -> code != 0)
                        .findFirst()
                        .orElse(0);
                return HealthCheckResult.finished(
                        target, check.kind(), exit, checks.logOf(namespace, first), CheckJobs.took(started));
            }
            CheckJobs.pause();
        }
        log.warn("Health check {} across {} ran past {}: its Job is deleted", check.kind(), target, check.timeout());
        return new HealthCheckResult(target, check.kind(), -1, "", CheckJobs.took(started), true, false);
    }

    private static boolean ended(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    private static int index(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        String index = labels == null ? null : labels.get(COMPLETION_INDEX);
        return index == null ? Integer.MAX_VALUE : Integer.parseInt(index);
    }

    private Job job(MultiNodeCheckJob check, List<Node> nodes, String name, @Nullable String sharedMemory) {
        List<Toleration> tolerations = nodes.stream()
                .flatMap(node -> CheckJobs.tolerationsOf(node).stream())
                .distinct()
                .toList();
        PodSpec pod = checks.podSpec(
                        check.kind(),
                        check.command(),
                        check.gpusPerNode(),
                        tolerations,
                        sharedMemory,
                        Map.of(
                                "ALLOT_NODES",
                                Integer.toString(check.nodes().size()),
                                "ALLOT_RANK0_HOST",
                                name + "-0." + name))
                .withSubdomain(name)
                .withAffinity(placement(check, name))
                .build();
        return new JobBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels(MANAGED_BY, "allot")
                .addToLabels(CheckJobs.CHECK, check.kind().name())
                .addToLabels(RESERVATION, check.ref().reservationId().toString())
                .endMetadata()
                .withNewSpec()
                .withCompletionMode("Indexed")
                .withCompletions(check.nodes().size())
                .withParallelism(check.nodes().size())
                .withBackoffLimit(0)
                .withActiveDeadlineSeconds(Math.max(1, check.timeout().toSeconds()))
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels(MANAGED_BY, "allot")
                .addToLabels(CheckJobs.CHECK, check.kind().name())
                .addToLabels(CHECK_JOB, name)
                .endMetadata()
                .withSpec(pod)
                .endTemplate()
                .endSpec()
                .build();
    }

    /**
     * The check's pods find each other (a headless Service named for the Job, {@code <name>-0.<name>} for rank 0),
     * and only each other (a NetworkPolicy).
     */
    private void createPeering(String namespace, String name) {
        client.resource(new ServiceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(namespace)
                        .addToLabels(MANAGED_BY, "allot")
                        .endMetadata()
                        .withNewSpec()
                        .withClusterIP("None")
                        .withPublishNotReadyAddresses(true)
                        .addToSelector(CHECK_JOB, name)
                        .endSpec()
                        .build())
                .create();
        client.resource(new NetworkPolicyBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(namespace)
                        .addToLabels(MANAGED_BY, "allot")
                        .endMetadata()
                        .withNewSpec()
                        .withNewPodSelector()
                        .addToMatchLabels(CHECK_JOB, name)
                        .endPodSelector()
                        .addNewIngress()
                        .addNewFrom()
                        .withNewPodSelector()
                        .addToMatchLabels(CHECK_JOB, name)
                        .endPodSelector()
                        .endFrom()
                        .endIngress()
                        .withPolicyTypes("Ingress")
                        .endSpec()
                        .build())
                .create();
    }

    /** A pod that cannot run: no GPU free on its node fails the check at once; a node lost makes it unreachable. */
    private static @Nullable HealthCheckResult lostPod(
            MultiNodeCheckJob check, String target, List<Pod> pods, long started) {
        for (Pod pod : pods) {
            String reason = pod.getStatus() == null ? null : pod.getStatus().getReason();
            if (reason != null && reason.startsWith("OutOf")) {
                throw new DriverFailedException(
                        "The check could not start on " + pod.getSpec().getNodeName() + " (" + reason
                                + "): its GPUs are in use; run it when the nodes' GPUs are free",
                        false);
            }
            if (reason != null && CheckJobs.NODE_LOST.contains(reason)) {
                return unreachable(
                        check,
                        target,
                        "the check's pod on " + pod.getSpec().getNodeName() + " failed with " + reason + ": "
                                + pod.getStatus().getMessage(),
                        started);
            }
        }
        return null;
    }

    /** One pod on each of the check's nodes. */
    private static Affinity placement(MultiNodeCheckJob check, String name) {
        return new AffinityBuilder()
                .withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm()
                .withMatchExpressions(new NodeSelectorRequirementBuilder()
                        .withKey("kubernetes.io/hostname")
                        .withOperator("In")
                        .withValues(check.nodes())
                        .build())
                .endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity()
                .withNewPodAntiAffinity()
                .addNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withTopologyKey("kubernetes.io/hostname")
                .withNewLabelSelector()
                .addToMatchLabels(CHECK_JOB, name)
                .endLabelSelector()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endPodAntiAffinity()
                .build();
    }

    /** {@code allot-check-<reservation>-<n>-nodes-<kind>}, cut to a DNS label that leaves room for the pods' index. */
    static String jobName(MultiNodeCheckJob check) {
        String name = (check.jobName() + "-" + check.kind().name())
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9-]", "-");
        return name.length() > 56 ? name.substring(0, 56) : name;
    }

    private void remove(String namespace, String name) {
        checks.delete(namespace, name);
        client.services().inNamespace(namespace).withName(name).delete();
        client.network()
                .v1()
                .networkPolicies()
                .inNamespace(namespace)
                .withName(name)
                .delete();
    }

    private static HealthCheckResult unreachable(MultiNodeCheckJob check, String target, String why, long started) {
        return new HealthCheckResult(target, check.kind(), -1, why, CheckJobs.took(started), false, true);
    }
}
