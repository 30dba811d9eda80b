package dev.allot.provisioning.driver.kubernetes;

import static dev.allot.provisioning.driver.kubernetes.Names.*;

import dev.allot.provisioning.driver.ClusterAccess;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterDriverException;
import dev.allot.provisioning.driver.ClusterRef;
import dev.allot.provisioning.driver.ClusterStatus;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.DriverProperties.KubernetesPool;
import dev.allot.provisioning.driver.HealthCheckJob;
import dev.allot.provisioning.driver.HealthCheckResult;
import dev.allot.provisioning.driver.MultiNodeCheckJob;
import dev.allot.provisioning.driver.ProvisionedCluster;
import dev.allot.provisioning.driver.ProvisionedVolume;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A reservation's cluster on Kubernetes is the namespace {@code allot-<reservation id>} on nodes dedicated to it.
 * Provisioning checks the nodes, converges the namespace and its objects (created, or replaced when they differ),
 * claims the nodes, then waits for the tenant's service account token; teardown restores the nodes and deletes
 * the namespace, which takes everything inside it along.
 */
public final class KubernetesDriver implements ClusterDriver, AutoCloseable {

    private final String pool;

    private final KubernetesClient client;

    private final KubernetesPool config;

    private final NodeClaims nodes;

    private final TenantKubeconfigs kubeconfigs;

    private final CheckJobs checks;

    private final MultiNodeCheckJobs multiNodeChecks;

    private final NodeReboots reboots;

    private final CudaDriverPin cudaDriver;

    public KubernetesDriver(String pool, KubernetesClient client, KubernetesPool config) {
        this.pool = pool;
        this.client = client;
        this.config = config;
        this.nodes = new NodeClaims(client);
        String server = config.tenantApiServer() != null
                ? config.tenantApiServer().toString()
                : client.getConfiguration().getMasterUrl();
        this.kubeconfigs = new TenantKubeconfigs(client, server, config.tokenWait());
        this.checks = new CheckJobs(client, config);
        this.multiNodeChecks = new MultiNodeCheckJobs(client, checks);
        this.reboots = new NodeReboots(client);
        this.cudaDriver = new CudaDriverPin(client);
    }

    /** A client from the pool's kubeconfig file, or the in-cluster / {@code ~/.kube/config} default. */
    public static KubernetesDriver connect(String pool, KubernetesPool config) {
        Config base = config.kubeconfig() != null
                ? Config.fromKubeconfig(config.context(), config.kubeconfig().toFile())
                : Config.autoConfigure(config.context());
        // Bounded requests, and no hidden retry loop inside the client: the lifecycle owns retries.
        Config bounded = new ConfigBuilder(base)
                .withRequestTimeout(30_000)
                .withConnectionTimeout(10_000)
                .withRequestRetryBackoffLimit(0)
                .build();
        return new KubernetesDriver(
                pool, new KubernetesClientBuilder().withConfig(bounded).build(), config);
    }

    @Override
    public ProvisionedCluster provision(ClusterBlueprint spec) {
        return translated("provision", () -> {
            ClusterRef ref = spec.ref();
            NamespaceResources resources = new NamespaceResources(spec);
            nodes.check(ref, spec.nodes());
            cudaDriver.requireOnNodes(spec);
            Namespace namespace = client.namespaces().withName(ref.name()).get();
            if (namespace != null && isTerminating(namespace)) {
                throw new DriverFailedException("Namespace " + ref.name() + " is still being deleted", true);
            }
            converge(resources.namespace());
            resources.converged().forEach(this::converge);
            List<HasMetadata> createdOnce = resources.createdOnce(config.storageClass());
            createdOnce.forEach(this::createIfAbsent);
            converge(cudaDriver.policy(spec));
            converge(cudaDriver.binding(spec));
            converge(SharedMemoryPolicy.policy(spec));
            converge(SharedMemoryPolicy.binding(spec));
            nodes.claim(ref, spec.nodes());
            return new ProvisionedCluster(
                    ref,
                    spec.nodes(),
                    kubeconfigs.forNamespace(ref.name()),
                    spec.volumes().stream()
                            .map(v -> new ProvisionedVolume(
                                    v.name(),
                                    "PVC " + v.name() + " in namespace " + ref.name(),
                                    "kubectl -n " + ref.name() + " get pvc " + v.name(),
                                    v.sizeGi() + " GiB requested"))
                            .toList(),
                    KubernetesBuildSteps.of(spec, resources.converged(), createdOnce));
        });
    }

    @Override
    public ClusterStatus status(ClusterRef ref) {
        return translated("status", () -> {
            Namespace namespace = client.namespaces().withName(ref.name()).get();
            List<Node> claimed = nodes.claimed(ref);
            Map<String, String> states = new LinkedHashMap<>();
            claimed.forEach(node -> states.put(node.getMetadata().getName(), NodeClaims.readiness(node)));
            List<String> names = List.copyOf(states.keySet());
            if (namespace == null) {
                return claimed.isEmpty()
                        ? ClusterStatus.absent(ref)
                        : new ClusterStatus(ref, ClusterStatus.Phase.INCOMPLETE, names, states, List.of("Namespace"));
            }
            if (isTerminating(namespace)) {
                return new ClusterStatus(ref, ClusterStatus.Phase.DELETING, names, states, List.of());
            }
            List<String> missing = missingParts(ref, namespace);
            missing.addAll(SharedMemoryPolicy.missing(client, ref));
            if (claimed.isEmpty()) {
                missing.add("Node labels");
            }
            return new ClusterStatus(
                    ref,
                    missing.isEmpty() ? ClusterStatus.Phase.READY : ClusterStatus.Phase.INCOMPLETE,
                    names,
                    states,
                    missing);
        });
    }

    private List<String> missingParts(ClusterRef ref, Namespace namespace) {
        String ns = namespace.getMetadata().getName();
        List<String> missing = new ArrayList<>();
        check(
                missing,
                "ResourceQuota/" + QUOTA,
                client.resourceQuotas().inNamespace(ns).withName(QUOTA).get());
        check(
                missing,
                "LimitRange/" + LIMITS,
                client.limitRanges().inNamespace(ns).withName(LIMITS).get());
        check(
                missing,
                "NetworkPolicy/" + NETWORK_POLICY,
                client.network()
                        .v1()
                        .networkPolicies()
                        .inNamespace(ns)
                        .withName(NETWORK_POLICY)
                        .get());
        check(
                missing,
                "Role/" + ROLE,
                client.rbac().roles().inNamespace(ns).withName(ROLE).get());
        check(
                missing,
                "RoleBinding/" + ROLE_BINDING,
                client.rbac()
                        .roleBindings()
                        .inNamespace(ns)
                        .withName(ROLE_BINDING)
                        .get());
        missingAccessParts(ns, missing);
        if (!cudaDriver.present(ref)) {
            missing.add("ValidatingAdmissionPolicy/" + CudaDriverPin.name(ref));
        }
        for (String volume : volumesOf(namespace)) {
            check(
                    missing,
                    "PersistentVolumeClaim/" + volume,
                    client.persistentVolumeClaims()
                            .inNamespace(ns)
                            .withName(volume)
                            .get());
        }
        return missing;
    }

    /** What the tenant reaches the namespace with: its defaults, its service account and that account's token. */
    private void missingAccessParts(String ns, List<String> missing) {
        check(
                missing,
                "ConfigMap/" + DEFAULTS,
                client.configMaps().inNamespace(ns).withName(DEFAULTS).get());
        check(
                missing,
                "ServiceAccount/" + SERVICE_ACCOUNT,
                client.serviceAccounts()
                        .inNamespace(ns)
                        .withName(SERVICE_ACCOUNT)
                        .get());
        check(
                missing,
                "Secret/" + TOKEN_SECRET,
                client.secrets().inNamespace(ns).withName(TOKEN_SECRET).get());
    }

    private static void check(List<String> missing, String part, @Nullable HasMetadata found) {
        if (found == null) {
            missing.add(part);
        }
    }

    @Override
    public ClusterAccess access(ClusterRef ref) {
        return translated("access", () -> {
            if (client.namespaces().withName(ref.name()).get() == null) {
                throw new DriverFailedException("Namespace " + ref.name() + " does not exist", false);
            }
            return kubeconfigs.forNamespace(ref.name());
        });
    }

    @Override
    public ClusterStatus addNodes(ClusterRef ref, List<String> added) {
        translated("addNodes", () -> {
            Namespace namespace = existing(ref);
            nodes.check(ref, added);
            String booked = namespace.getMetadata().getLabels().get(CUDA_DRIVER);
            if (booked != null) {
                cudaDriver.requireOnNodes(added, booked);
            }
            nodes.claim(ref, added);
            resizeQuota(ref, namespace);
            return null;
        });
        return status(ref);
    }

    @Override
    public ClusterStatus removeNodes(ClusterRef ref, List<String> removed) {
        translated("removeNodes", () -> {
            Namespace namespace = existing(ref);
            nodes.release(ref, removed);
            resizeQuota(ref, namespace);
            return null;
        });
        return status(ref);
    }

    private void resizeQuota(ClusterRef ref, Namespace namespace) {
        int gpusPerNode =
                Integer.parseInt(namespace.getMetadata().getAnnotations().getOrDefault(GPUS_PER_NODE, "0"));
        int gpus = nodes.claimed(ref).size() * gpusPerNode;
        ResourceQuota quota =
                client.resourceQuotas().inNamespace(ref.name()).withName(QUOTA).get();
        if (quota != null) {
            quota.getSpec().getHard().put("requests." + GPU_RESOURCE, new Quantity(Integer.toString(gpus)));
            quota.getMetadata().setResourceVersion(null);
            converge(quota);
        }
    }

    private Namespace existing(ClusterRef ref) {
        Namespace namespace = client.namespaces().withName(ref.name()).get();
        if (namespace == null || isTerminating(namespace)) {
            throw new DriverFailedException("Namespace " + ref.name() + " does not exist", false);
        }
        return namespace;
    }

    @Override
    public boolean supportsHealthChecks() {
        return true;
    }

    /** A Job pinned to the node ({@link CheckJobs}); what its pod printed comes back unjudged. */
    @Override
    public HealthCheckResult runHealthCheck(HealthCheckJob job) {
        return translated("healthCheck", () -> checks.run(job));
    }

    @Override
    public boolean supportsMultiNodeChecks() {
        return true;
    }

    /** An Indexed Job with one pod on each node ({@link MultiNodeCheckJobs}); rank 0's log comes back unjudged. */
    @Override
    public HealthCheckResult runMultiNodeCheck(MultiNodeCheckJob job) {
        return translated("multiNodeCheck", () -> multiNodeChecks.run(job));
    }

    /** Cordon, drain and the provider's reboot annotation ({@link NodeReboots}). */
    @Override
    public Reboot reboot(ClusterRef ref, String node) {
        return translated("reboot", () -> reboots.reboot(ref.name(), node));
    }

    @Override
    public boolean backFromReboot(ClusterRef ref, String node, @Nullable String mark) {
        return translated("backFromReboot", () -> reboots.back(node, mark));
    }

    @Override
    public void teardown(ClusterRef ref) {
        translated("teardown", () -> {
            nodes.releaseAll(ref);
            cudaDriver.remove(ref);
            client.namespaces().withName(ref.name()).delete();
            SharedMemoryPolicy.delete(client, ref);
            return null;
        });
    }

    private void converge(HasMetadata resource) {
        client.resource(resource).createOr(NonDeletingOperation::update);
    }

    private void createIfAbsent(HasMetadata resource) {
        if (client.resource(resource).get() != null) {
            return;
        }
        try {
            client.resource(resource).create();
        } catch (KubernetesClientException ex) {
            if (ex.getCode() != 409) { // created meanwhile by a concurrent attempt: fine
                throw ex;
            }
        }
    }

    private static boolean isTerminating(Namespace namespace) {
        return namespace.getMetadata().getDeletionTimestamp() != null
                || (namespace.getStatus() != null
                        && "Terminating".equals(namespace.getStatus().getPhase()));
    }

    private static Set<String> volumesOf(Namespace namespace) {
        Map<String, String> annotations = namespace.getMetadata().getAnnotations();
        String volumes = annotations == null ? "" : annotations.getOrDefault(VOLUMES, "");
        Set<String> names = new LinkedHashSet<>();
        for (String entry : volumes.split(",")) {
            if (!entry.isBlank()) {
                names.add(entry.substring(0, entry.indexOf(':')));
            }
        }
        return names;
    }

    private <T> T translated(String operation, Supplier<T> call) {
        try {
            return call.get();
        } catch (ClusterDriverException ex) {
            throw ex;
        } catch (KubernetesClientException ex) {
            int code = ex.getCode();
            // 0: no HTTP answer at all; 409: a concurrent change; 429 and 5xx: the API server is busy or failing.
            boolean retryable = code == 0 || code == 409 || code == 429 || code >= 500;
            throw new DriverFailedException(
                    "Kubernetes " + operation + " on pool " + pool + " failed (HTTP " + code + "): " + ex.getMessage(),
                    retryable,
                    ex);
        }
    }

    @Override
    public void close() {
        client.close();
    }

    @Override
    public String toString() {
        return "kubernetes driver (" + client.getConfiguration().getMasterUrl() + ")";
    }
}
