package dev.allot.provisioning.driver.kubernetes;

import static dev.allot.provisioning.driver.kubernetes.Names.*;

import dev.allot.provisioning.driver.ClusterRef;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.DriverProperties.KubernetesPool;
import dev.allot.provisioning.driver.HealthCheckJob;
import dev.allot.provisioning.driver.HealthCheckKind;
import dev.allot.provisioning.driver.HealthCheckResult;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A health check as a batch/v1 Job pinned to its node with {@code nodeName} (so no scheduler and no taint
 * stands in the way: the node's taints become the pod's tolerations), bounded by {@code activeDeadlineSeconds}.
 * It runs in the reservation's namespace once its window has started, before that (acceptance) in the pool's
 * maintenance namespace. Allot waits for the pod to end, reads its log, and deletes the Job.
 */
final class CheckJobs {

    private static final Logger log = LoggerFactory.getLogger(CheckJobs.class);

    static final String CHECK = "allot.dev/check";

    static final String CHECKED_NODE = "allot.dev/checked-node";

    /** Pod failures that say the node, not the check, failed. */
    static final Set<String> NODE_LOST = Set.of("NodeLost", "Evicted", "Shutdown", "NodeShutdown", "Terminated");

    private static final Duration POLL = Duration.ofMillis(200);

    private final KubernetesClient client;

    private final KubernetesPool config;

    CheckJobs(KubernetesClient client, KubernetesPool config) {
        this.client = client;
        this.config = config;
    }

    HealthCheckResult run(HealthCheckJob check) {
        long started = System.nanoTime();
        Node node = client.nodes().withName(check.node()).get();
        if (node == null || !"Ready".equals(NodeClaims.readiness(node))) {
            String state = node == null ? "does not exist" : "is " + NodeClaims.readiness(node);
            return unreachable(check, "Kubernetes reports " + check.node() + " " + state, started);
        }
        String namespace = namespaceFor(check.ref());
        String name = jobName(check);
        delete(namespace, name); // a leftover of an interrupted attempt
        client.batch()
                .v1()
                .jobs()
                .inNamespace(namespace)
                .resource(job(check, node, name, sharedMemoryIn(namespace)))
                .create();
        try {
            return awaitEnd(check, namespace, name, started);
        } finally {
            delete(namespace, name);
        }
    }

    private HealthCheckResult awaitEnd(HealthCheckJob check, String namespace, String name, long started) {
        // the Job's own deadline ends the pod; ours (a little later) covers an API server that never says so
        long deadline = started + check.timeout().plusSeconds(5).toNanos();
        while (System.nanoTime() < deadline) {
            Job job = client.batch()
                    .v1()
                    .jobs()
                    .inNamespace(namespace)
                    .withName(name)
                    .get();
            if (job == null) {
                return unreachable(check, "the check's Job " + name + " was deleted while it ran", started);
            }
            if (deadlineExceeded(job)) {
                break;
            }
            Pod pod = podOf(namespace, name);
            String phase = pod == null || pod.getStatus() == null
                    ? null
                    : pod.getStatus().getPhase();
            if (pod != null && phase != null && ("Succeeded".equals(phase) || "Failed".equals(phase))) {
                return ended(check, pod, phase, started);
            }
            if (!nodeReady(check.node())) {
                return unreachable(check, check.node() + " stopped being Ready during the check", started);
            }
            pause();
        }
        log.warn("Health check {} on {} ran past {}: its Job is deleted", check.kind(), check.node(), check.timeout());
        return new HealthCheckResult(
                check.node(), check.kind(), -1, logOf(namespace, podOf(namespace, name)), took(started), true, false);
    }

    private HealthCheckResult ended(HealthCheckJob check, Pod pod, String phase, long started) {
        String reason = pod.getStatus().getReason();
        if ("Failed".equals(phase) && reason != null && reason.startsWith("OutOf")) {
            // the kubelet refused the pod (OutOfnvidia.com/gpu: the tenant's pods hold the GPUs): not the node's fault
            throw new DriverFailedException(
                    "The check could not start on " + check.node() + " (" + reason
                            + "): its GPUs are in use; run it when the node's GPUs are free",
                    false);
        }
        if ("Failed".equals(phase) && reason != null && NODE_LOST.contains(reason)) {
            return unreachable(
                    check,
                    "the check's pod failed with " + reason + ": "
                            + pod.getStatus().getMessage(),
                    started);
        }
        int exit = exitCode(pod, "Succeeded".equals(phase) ? 0 : 1);
        return HealthCheckResult.finished(
                check.node(), check.kind(), exit, logOf(pod.getMetadata().getNamespace(), pod), took(started));
    }

    static int exitCode(Pod pod, int otherwise) {
        List<ContainerStatus> statuses = pod.getStatus().getContainerStatuses();
        if (statuses == null) {
            return otherwise;
        }
        return statuses.stream()
                .filter(s -> s.getState() != null && s.getState().getTerminated() != null)
                .map(s -> s.getState().getTerminated())
                .map(ContainerStateTerminated::getExitCode)
                .filter(code -> code != null)
                .findFirst()
                .orElse(otherwise);
    }

    static boolean deadlineExceeded(Job job) {
        List<JobCondition> conditions =
                job.getStatus() == null ? null : job.getStatus().getConditions();
        return conditions != null
                && conditions.stream()
                        .anyMatch(c -> "Failed".equals(c.getType())
                                && "True".equals(c.getStatus())
                                && "DeadlineExceeded".equals(c.getReason()));
    }

    private @Nullable Pod podOf(String namespace, String job) {
        return client.pods().inNamespace(namespace).withLabel("job-name", job).list().getItems().stream()
                .findFirst()
                .orElse(null);
    }

    String logOf(String namespace, @Nullable Pod pod) {
        if (pod == null) {
            return "";
        }
        try {
            String text = client.pods()
                    .inNamespace(namespace)
                    .withName(pod.getMetadata().getName())
                    .getLog();
            return text == null ? "" : text;
        } catch (KubernetesClientException ex) {
            log.warn(
                    "No log of check pod {}/{}: {}",
                    namespace,
                    pod.getMetadata().getName(),
                    ex.getMessage());
            return "";
        }
    }

    boolean nodeReady(String name) {
        Node node = client.nodes().withName(name).get();
        return node != null && "Ready".equals(NodeClaims.readiness(node));
    }

    /** The reservation's namespace once its window has started; the maintenance namespace before. */
    String namespaceFor(ClusterRef ref) {
        Namespace namespace = client.namespaces().withName(ref.name()).get();
        if (namespace != null && namespace.getMetadata().getDeletionTimestamp() == null && started(namespace)) {
            return ref.name();
        }
        String maintenance = config.maintenanceNamespace();
        if (client.namespaces().withName(maintenance).get() == null) {
            client.resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(maintenance)
                            .addToLabels(MANAGED_BY, "allot")
                            .endMetadata()
                            .build())
                    .createOr(NonDeletingOperation::update);
        }
        return maintenance;
    }

    private static boolean started(Namespace namespace) {
        Map<String, String> annotations = namespace.getMetadata().getAnnotations();
        String window = annotations == null ? null : annotations.get(WINDOW);
        if (window == null || !window.contains("/")) {
            return true;
        }
        return !Instant.parse(window.substring(0, window.indexOf('/'))).isAfter(Instant.now());
    }

    /** The booked /dev/shm size in a reservation's namespace, which its admission policy demands of every pod. */
    @Nullable
    String sharedMemoryIn(String namespace) {
        Namespace found = client.namespaces().withName(namespace).get();
        Map<String, String> labels = found == null ? null : found.getMetadata().getLabels();
        return labels == null ? null : labels.get(SHARED_MEMORY);
    }

    private Job job(HealthCheckJob check, Node node, String name, @Nullable String sharedMemory) {
        PodSpec pod = podSpec(check.kind(), check.command(), check.gpus(), tolerationsOf(node), sharedMemory, Map.of())
                .withNodeName(check.node())
                .build();
        return new JobBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels(MANAGED_BY, "allot")
                .addToLabels(CHECK, check.kind().name())
                .addToLabels(CHECKED_NODE, label(check.node()))
                .addToLabels(RESERVATION, check.ref().reservationId().toString())
                .endMetadata()
                .withNewSpec()
                .withBackoffLimit(0)
                .withActiveDeadlineSeconds(Math.max(1, check.timeout().toSeconds()))
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels(MANAGED_BY, "allot")
                .addToLabels(CHECK, check.kind().name())
                .endMetadata()
                .withSpec(pod)
                .endTemplate()
                .endSpec()
                .build();
    }

    /**
     * A check's pod: one container running the command with the GPUs asked for, {@code NODE_NAME} and {@code env}
     * in its environment, and the namespace's /dev/shm when its admission policy demands one.
     */
    PodSpecBuilder podSpec(
            HealthCheckKind kind,
            List<String> command,
            int gpus,
            List<Toleration> tolerations,
            @Nullable String sharedMemory,
            Map<String, String> env) {
        var container = new PodSpecBuilder()
                .withRestartPolicy("Never")
                .withTolerations(tolerations)
                .withAutomountServiceAccountToken(false)
                .addNewContainer()
                .withName("check")
                .withImage(config.checkImage(kind))
                .withCommand(command)
                .addNewEnv()
                .withName("NODE_NAME")
                .withNewValueFrom()
                .withNewFieldRef()
                .withFieldPath("spec.nodeName")
                .endFieldRef()
                .endValueFrom()
                .endEnv();
        env.forEach((key, value) ->
                container.addNewEnv().withName(key).withValue(value).endEnv());
        if (gpus > 0) {
            Quantity quantity = new Quantity(Integer.toString(gpus));
            container
                    .withNewResources()
                    .addToLimits(GPU_RESOURCE, quantity)
                    .addToRequests(GPU_RESOURCE, quantity)
                    .endResources();
        }
        if (sharedMemory == null) {
            return container.endContainer();
        }
        return container
                .addNewVolumeMount()
                .withName("dshm")
                .withMountPath("/dev/shm")
                .endVolumeMount()
                .endContainer()
                .addNewVolume()
                .withName("dshm")
                .withNewEmptyDir()
                .withMedium("Memory")
                .withSizeLimit(new Quantity(sharedMemory))
                .endEmptyDir()
                .endVolume();
    }

    /** Every taint of the node tolerated, so that the pod runs on a node dedicated or cordoned for anyone. */
    static List<Toleration> tolerationsOf(Node node) {
        List<Taint> taints = node.getSpec() == null || node.getSpec().getTaints() == null
                ? List.of()
                : node.getSpec().getTaints();
        return taints.stream()
                .map(taint -> {
                    TolerationBuilder toleration =
                            new TolerationBuilder().withKey(taint.getKey()).withEffect(taint.getEffect());
                    return taint.getValue() == null || taint.getValue().isEmpty()
                            ? toleration.withOperator("Exists").build()
                            : toleration
                                    .withOperator("Equal")
                                    .withValue(taint.getValue())
                                    .build();
                })
                .toList();
    }

    /** {@code allot-check-<reservation>-<node>-<kind>}, cut to a DNS label. */
    static String jobName(HealthCheckJob check) {
        String name = (check.jobName() + "-" + check.kind().name())
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9-]", "-");
        if (name.length() > 63) {
            String hash = Integer.toHexString(name.hashCode());
            name = name.substring(0, 62 - hash.length()) + "-" + hash;
        }
        return name;
    }

    static String label(String value) {
        String cleaned = value.replaceAll("[^A-Za-z0-9._-]", "-");
        return cleaned.length() > 63 ? cleaned.substring(0, 63) : cleaned;
    }

    void delete(String namespace, String name) {
        client.batch()
                .v1()
                .jobs()
                .inNamespace(namespace)
                .withName(name)
                .withPropagationPolicy(DeletionPropagation.BACKGROUND)
                .delete();
        // the mock server has no garbage collector; a real one would remove them with the Job
        client.pods().inNamespace(namespace).withLabel("job-name", name).delete();
    }

    private static HealthCheckResult unreachable(HealthCheckJob check, String why, long started) {
        return new HealthCheckResult(check.node(), check.kind(), -1, why, took(started), false, true);
    }

    static Duration took(long started) {
        return Duration.ofNanos(System.nanoTime() - started);
    }

    static void pause() {
        try {
            TimeUnit.NANOSECONDS.sleep(POLL.toNanos());
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a health check", ex);
        }
    }
}
