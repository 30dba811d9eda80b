package dev.allot.provisioning.driver.fake;

import dev.allot.provisioning.driver.BuildStep;
import dev.allot.provisioning.driver.ClusterAccess;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterDriver;
import dev.allot.provisioning.driver.ClusterDriverException;
import dev.allot.provisioning.driver.ClusterRef;
import dev.allot.provisioning.driver.ClusterStatus;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.HealthCheckJob;
import dev.allot.provisioning.driver.HealthCheckResult;
import dev.allot.provisioning.driver.NodesUnavailableException;
import dev.allot.provisioning.driver.ProvisionedCluster;
import dev.allot.provisioning.driver.ProvisionedVolume;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Keeps clusters in memory and behaves like the real adapters where the lifecycle can tell: idempotent
 * operations, a node held by an overlapping cluster refused with {@link NodesUnavailableException}.
 * <p>
 * Faults are injected per call, in order: {@link #failNext}, {@link #loseNextReplies} (the work is done, the
 * answer is an error, as when a reply is lost) and {@link #delay} (with the pool timeout this is a timeout).
 */
public final class FakeDriver implements ClusterDriver {

    private final Map<UUID, FakeCluster> clusters = new ConcurrentHashMap<>();

    private final List<String> calls = new CopyOnWriteArrayList<>();

    private final Map<String, FakeCheckOutputs.Health> unhealthyNodes = new ConcurrentHashMap<>();

    private final Set<String> failOnce = ConcurrentHashMap.newKeySet();

    private final Set<String> rebooted = ConcurrentHashMap.newKeySet();

    private final Map<String, CountDownLatch> held = new ConcurrentHashMap<>();

    private final Faults faults = new Faults();

    private volatile Duration delay;

    public FakeDriver(Duration latency) {
        this.delay = latency;
    }

    /** The next {@code count} calls fail with a retryable error and change nothing. */
    public FakeDriver failNext(int count) {
        return failNext(count, () -> new DriverFailedException("injected failure", true));
    }

    /** The next {@code count} calls fail with the given error and change nothing. */
    public FakeDriver failNext(int count, Supplier<? extends ClusterDriverException> error) {
        faults.add(count, new Faults.Fault(false, error));
        return this;
    }

    /** The next {@code count} calls do their work, then answer with a retryable error. */
    public FakeDriver loseNextReplies(int count) {
        faults.add(count, new Faults.Fault(true, () -> new DriverFailedException("injected lost reply", true)));
        return this;
    }

    /** Every call takes this long (interruptibly) before doing anything. */
    public FakeDriver delay(Duration delay) {
        this.delay = delay;
        return this;
    }

    /** Health checks on this node find a hardware fault (an uncorrected ECC error, a faulty GPU) from now on. */
    public FakeDriver failHealthChecksOn(String node) {
        unhealthyNodes.put(node, FakeCheckOutputs.Health.HARDWARE_FAULT);
        return this;
    }

    /** Health checks on this node find a software fault (an application Xid) until it is rebooted. */
    public FakeDriver failHealthChecksUntilRebootOn(String node) {
        unhealthyNodes.put(node, FakeCheckOutputs.Health.SOFTWARE_FAULT);
        return this;
    }

    /** The next health check on this node finds a hardware fault (an uncorrected ECC error); the one after passes. */
    public FakeDriver failNextHealthCheckOn(String node) {
        failOnce.add(node);
        return this;
    }

    /**
     * Health checks on this node that find nothing wrong (not those {@link #failNextHealthCheckOn} fails) wait until
     * the returned release runs, two minutes at most: a check still running, for as long as a test looks at it.
     */
    public Runnable holdHealthChecksOn(String node) {
        CountDownLatch latch = new CountDownLatch(1);
        held.put(node, latch);
        return () -> {
            held.remove(node, latch);
            latch.countDown();
        };
    }

    /** Nodes rebooted through {@link #reboot}. */
    public Set<String> rebooted() {
        return Set.copyOf(rebooted);
    }

    /** Forgets faults, delay, clusters and calls. */
    public void reset() {
        faults.clear();
        delay = Duration.ZERO;
        clusters.clear();
        calls.clear();
        unhealthyNodes.clear();
        failOnce.clear();
        rebooted.clear();
        held.values().forEach(CountDownLatch::countDown);
        held.clear();
    }

    /** Operations received, e.g. {@code provision allot-<id>}, including failed ones. */
    public List<String> calls() {
        return List.copyOf(calls);
    }

    /** The clusters that exist now: after every teardown, none is left. */
    public Map<UUID, FakeCluster> clusters() {
        return Map.copyOf(clusters);
    }

    @Override
    public ProvisionedCluster provision(ClusterBlueprint spec) {
        return call("provision " + spec.ref().name(), () -> {
            synchronized (clusters) {
                List<String> taken = spec.nodes().stream()
                        .filter(node -> heldByOther(spec, node))
                        .toList();
                if (!taken.isEmpty()) {
                    throw NodesUnavailableException.heldByAnother(
                            taken, "held by another reservation in an overlapping window");
                }
                clusters.compute(
                        spec.reservationId(),
                        (id, existing) -> existing == null
                                ? new FakeCluster(spec, spec.nodes())
                                : new FakeCluster(spec, existing.nodes()));
            }
            FakeCluster cluster = Objects.requireNonNull(clusters.get(spec.reservationId()), "computed just now");
            // Nothing real is built: the one step says so, and the CUDA driver and the rest are only recorded.
            return new ProvisionedCluster(
                    spec.ref(),
                    cluster.nodes(),
                    accessTo(spec.ref()),
                    spec.volumes().stream()
                            .map(v -> new ProvisionedVolume(
                                    v.name(),
                                    "fake:" + spec.ref().name() + "/" + v.name(),
                                    "nothing (fake driver)",
                                    "pretended"))
                            .toList(),
                    List.of(new BuildStep(
                            "Simulated " + spec.orchestrator() + " cluster held in memory on "
                                    + String.join(",", cluster.nodes())
                                    + " (fake driver: nothing is built, no CUDA driver is pinned)",
                            "this Allot instance only")));
        });
    }

    private boolean heldByOther(ClusterBlueprint spec, String node) {
        return clusters.values().stream()
                .anyMatch(other -> !other.spec().reservationId().equals(spec.reservationId())
                        && other.nodes().contains(node)
                        && other.spec().startsAt().isBefore(spec.endsAt())
                        && spec.startsAt().isBefore(other.spec().endsAt()));
    }

    @Override
    public ClusterStatus status(ClusterRef ref) {
        return call("status " + ref.name(), () -> statusOf(ref));
    }

    @Override
    public ClusterAccess access(ClusterRef ref) {
        return call("access " + ref.name(), () -> {
            if (!clusters.containsKey(ref.reservationId())) {
                throw new DriverFailedException("Cluster " + ref.name() + " does not exist", false);
            }
            return accessTo(ref);
        });
    }

    @Override
    public ClusterStatus addNodes(ClusterRef ref, List<String> nodes) {
        return call("addNodes " + ref.name(), () -> changeNodes(ref, nodes, true));
    }

    @Override
    public ClusterStatus removeNodes(ClusterRef ref, List<String> nodes) {
        return call("removeNodes " + ref.name(), () -> changeNodes(ref, nodes, false));
    }

    private ClusterStatus changeNodes(ClusterRef ref, List<String> nodes, boolean add) {
        synchronized (clusters) {
            FakeCluster cluster = clusters.get(ref.reservationId());
            if (cluster == null) {
                throw new DriverFailedException("Cluster " + ref.name() + " does not exist", false);
            }
            if (add) {
                List<String> taken = nodes.stream()
                        .filter(node -> heldByOther(cluster.spec(), node))
                        .toList();
                if (!taken.isEmpty()) {
                    throw NodesUnavailableException.heldByAnother(
                            taken, "held by another reservation in an overlapping window");
                }
            }
            Set<String> now = new LinkedHashSet<>(cluster.nodes());
            if (add) {
                now.addAll(nodes);
            } else {
                now.removeAll(nodes);
            }
            clusters.put(ref.reservationId(), new FakeCluster(cluster.spec(), new ArrayList<>(now)));
        }
        return statusOf(ref);
    }

    @Override
    public boolean supportsHealthChecks() {
        return true;
    }

    @Override
    public HealthCheckResult runHealthCheck(HealthCheckJob job) {
        return call("health " + job.kind() + " " + job.node(), () -> {
            FakeCheckOutputs.Health health = failOnce.remove(job.node())
                    ? FakeCheckOutputs.Health.HARDWARE_FAULT
                    : unhealthyNodes.getOrDefault(job.node(), FakeCheckOutputs.Health.HEALTHY);
            CountDownLatch hold = held.get(job.node());
            if (hold != null && health == FakeCheckOutputs.Health.HEALTHY) {
                try {
                    hold.await(2, TimeUnit.MINUTES);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    throw new DriverFailedException("interrupted", true, ex);
                }
            }
            return HealthCheckResult.finished(
                    job.node(), job.kind(), 0, FakeCheckOutputs.of(job.kind(), job.gpus(), health), Duration.ZERO);
        });
    }

    /** A reboot cures a software fault. */
    @Override
    public Reboot reboot(ClusterRef ref, String node) {
        return call("reboot " + node, () -> {
            rebooted.add(node);
            unhealthyNodes.remove(node, FakeCheckOutputs.Health.SOFTWARE_FAULT);
            return new Reboot("rebooted " + node + " (fake)", null);
        });
    }

    @Override
    public void teardown(ClusterRef ref) {
        call("teardown " + ref.name(), () -> clusters.remove(ref.reservationId()));
    }

    private ClusterStatus statusOf(ClusterRef ref) {
        FakeCluster cluster = clusters.get(ref.reservationId());
        if (cluster == null) {
            return ClusterStatus.absent(ref);
        }
        Map<String, String> states = new LinkedHashMap<>();
        cluster.nodes().forEach(node -> states.put(node, "READY"));
        return new ClusterStatus(ref, ClusterStatus.Phase.READY, cluster.nodes(), states, List.of());
    }

    private static ClusterAccess accessTo(ClusterRef ref) {
        return new ClusterAccess.Fake("fake://" + ref.name());
    }

    private <T> T call(String operation, Supplier<T> work) {
        calls.add(operation);
        pause();
        Faults.Fault fault = faults.next();
        if (fault != null && !fault.afterWork()) {
            throw fault.error().get();
        }
        T result = work.get();
        if (fault != null) {
            throw fault.error().get();
        }
        return result;
    }

    private void pause() {
        Duration current = delay;
        if (current.isZero()) {
            return;
        }
        try {
            Thread.sleep(current);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new DriverFailedException("interrupted", true, ex);
        }
    }

    @Override
    public String toString() {
        return "fake driver";
    }

    /** One cluster as the fake holds it. */
    public record FakeCluster(ClusterBlueprint spec, List<String> nodes) {

        public FakeCluster {
            nodes = List.copyOf(nodes);
        }
    }
}
