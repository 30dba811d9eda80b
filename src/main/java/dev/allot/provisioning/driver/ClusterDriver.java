package dev.allot.provisioning.driver;

import java.util.List;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * Builds and removes the isolated cluster of one reservation on one pool's infrastructure.
 * <p>
 * Every operation is idempotent: it converges on the intended state, finds and reuses what an earlier,
 * interrupted attempt created, and may be repeated after a crash or a lost reply. Every operation is bounded
 * by the pool's timeout ({@link DriverTimeoutException}). Failures are {@link ClusterDriverException}s that
 * say whether a retry can help.
 */
public interface ClusterDriver {

    /** Creates (or completes) the cluster; refuses nodes it cannot dedicate with {@link NodesUnavailableException}. */
    ProvisionedCluster provision(ClusterBlueprint spec);

    /** What exists now; {@link ClusterStatus.Phase#ABSENT} for a cluster never built or torn down. */
    ClusterStatus status(ClusterRef ref);

    /** How the tenant connects, read fresh from the infrastructure: credentials are never stored by Allot. */
    ClusterAccess access(ClusterRef ref);

    /** Dedicates more nodes to a provisioned cluster (node migration); nodes already in it are ignored. */
    ClusterStatus addNodes(ClusterRef ref, List<String> nodes);

    /** Gives nodes back and restores them; nodes not in the cluster are ignored. */
    ClusterStatus removeNodes(ClusterRef ref, List<String> nodes);

    /** Whether {@link #runHealthCheck} works with this adapter. */
    boolean supportsHealthChecks();

    /**
     * Runs a check as a job pinned to one node of the cluster and returns what it printed (judging it is the
     * health module's); a job past its timeout is cancelled and reported {@code timedOut}. Throws
     * {@link UnsupportedDriverOperationException} when the adapter cannot.
     */
    HealthCheckResult runHealthCheck(HealthCheckJob job);

    /** Whether {@link #runMultiNodeCheck} works with this adapter. */
    default boolean supportsMultiNodeChecks() {
        return false;
    }

    /**
     * Runs a check as one job across several nodes of the cluster, one task per node, and returns what it printed
     * ({@code node} names the nodes, comma-separated; {@code unreachable} when a node failed under the job).
     */
    default HealthCheckResult runMultiNodeCheck(MultiNodeCheckJob job) {
        throw new UnsupportedDriverOperationException(getClass().getSimpleName(), "runMultiNodeCheck");
    }

    /**
     * Restarts a node that a software-class fault left unhealthy (Slurm {@code scontrol reboot}; Kubernetes:
     * cordon, drain and the provider's reboot annotation). Returns what was done, and what the driver read of the
     * node before asking, to tell later that it has restarted since (see {@link #backFromReboot}).
     */
    default Reboot reboot(ClusterRef ref, String node) {
        throw new UnsupportedDriverOperationException(getClass().getSimpleName(), "reboot");
    }

    /**
     * A reboot asked of the driver: {@code done} describes it (for the timeline); {@code mark} is what the driver read
     * of the node before asking (Slurm: its slurmd's start time), null when the driver needs nothing to tell that the
     * node restarted.
     */
    record Reboot(String done, @Nullable String mark) {}

    /**
     * Whether a node restarted through {@link #reboot} is back: it has restarted since ({@code mark}, as the reboot
     * returned it), is up, and is no longer held out of service for the reboot (Slurm: a new slurmd start, no reboot,
     * down or drain flag; Kubernetes: {@code Ready}, uncordoned, the provider's annotation gone). Allot checks it
     * again only then.
     */
    default boolean backFromReboot(ClusterRef ref, String node, @Nullable String mark) {
        return true;
    }

    /**
     * Removes everything the cluster consists of and restores its nodes; a missing cluster is not an error.
     * Volumes that live outside the cluster (Slurm directories) stay: see {@link #removeVolumes}.
     */
    void teardown(ClusterRef ref);

    /**
     * Removes the named volumes of the cluster where they outlive it (Slurm directories); missing ones are not an
     * error. Volumes that go with the cluster (Kubernetes PVCs, deleted with the namespace) need nothing.
     */
    default void removeVolumes(ClusterRef ref, List<String> names) {}

    /**
     * Bytes the volume holds on disk, for a monitored size limit; empty where the driver cannot tell or the
     * platform enforces the size itself (a PVC's capacity).
     */
    default OptionalLong volumeUsage(ClusterRef ref, String name) {
        return OptionalLong.empty();
    }
}
