package dev.allot.provisioning.driver;

import dev.allot.booking.spec.ClusterSpec.Orchestrator;
import dev.allot.shared.Slugs;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What to build for one reservation, as booked: the nodes (hostnames as the pool's cluster knows them),
 * the window, and the tenant's choices.
 *
 * @param gpusPerNode GPUs on each reserved node (the GPU quota is nodes times this)
 * @param cudaDriver the CUDA driver version the nodes must run, e.g. {@code 550.54.15}
 * @param sharedMemoryGi size of {@code /dev/shm} for the tenant's workloads
 * @param sshPublicKeys the booking's keys, for SSH access where the orchestrator offers it
 * @param loginUsers the tenant's users who may log in and submit ({@link #isLoginUser}), where the orchestrator has
 * user accounts (Slurm)
 * @param keysFor the one login the booking's keys open: the user who booked, when that user is among
 * {@code loginUsers}; {@code null} (a service account booked): they open none. A key never opens another user's
 * login, so making someone a member gives nobody their login.
 */
public record ClusterBlueprint(
        UUID reservationId,
        String tenant,
        String project,
        List<String> nodes,
        int gpusPerNode,
        Instant startsAt,
        Instant endsAt,
        Orchestrator orchestrator,
        String cudaDriver,
        int sharedMemoryGi,
        List<Volume> volumes,
        List<String> sshPublicKeys,
        List<String> loginUsers,
        @Nullable String keysFor) {

    /** A portable POSIX user name (what useradd accepts by default), at most 32 characters. */
    private static final Pattern LOGIN_USER = Pattern.compile("^[a-z_][a-z0-9_-]{0,31}$");

    /** Names no tenant may log in as, whatever its members are called. */
    private static final Set<String> RESERVED_USERS =
            Set.of("root", "slurm", "munge", "daemon", "bin", "sys", "nobody");

    private static final Pattern HOSTNAME = Pattern.compile("^[a-zA-Z0-9]([a-zA-Z0-9.-]{0,251}[a-zA-Z0-9])?$");

    private static final Pattern DRIVER_VERSION = Pattern.compile("^\\d{2,4}(\\.\\d{1,3}){0,2}$");

    public ClusterBlueprint {
        Objects.requireNonNull(reservationId, "reservationId");
        require(tenant != null && Slugs.isValid(tenant), "tenant " + Slugs.MESSAGE);
        require(project != null && Slugs.isValid(project), "project " + Slugs.MESSAGE);
        require(nodes != null && !nodes.isEmpty(), "at least one node is needed");
        require(nodes.stream().allMatch(n -> n != null && HOSTNAME.matcher(n).matches()), "nodes must be hostnames");
        require(new HashSet<>(nodes).size() == nodes.size(), "nodes must not repeat");
        require(gpusPerNode > 0, "gpusPerNode must be positive");
        require(startsAt != null && endsAt != null && startsAt.isBefore(endsAt), "startsAt must be before endsAt");
        Objects.requireNonNull(orchestrator, "orchestrator");
        require(
                cudaDriver != null && DRIVER_VERSION.matcher(cudaDriver).matches(),
                "cudaDriver must be a driver version such as 550.54.15");
        require(sharedMemoryGi > 0, "sharedMemoryGi must be positive");
        volumes = volumes == null ? List.of() : List.copyOf(volumes);
        require(
                volumes.stream().map(Volume::name).distinct().count() == volumes.size(),
                "volume names must not repeat");
        nodes = List.copyOf(nodes);
        sshPublicKeys = sshPublicKeys == null ? List.of() : List.copyOf(sshPublicKeys);
        loginUsers = loginUsers == null ? List.of() : List.copyOf(loginUsers);
        require(loginUsers.stream().allMatch(ClusterBlueprint::isLoginUser), "login users must be POSIX user names");
    }

    /** A blueprint with no tenant login (none configured, or an orchestrator without user accounts). */
    public ClusterBlueprint(
            UUID reservationId,
            String tenant,
            String project,
            List<String> nodes,
            int gpusPerNode,
            Instant startsAt,
            Instant endsAt,
            Orchestrator orchestrator,
            String cudaDriver,
            int sharedMemoryGi,
            List<Volume> volumes,
            List<String> sshPublicKeys) {
        this(
                reservationId,
                tenant,
                project,
                nodes,
                gpusPerNode,
                startsAt,
                endsAt,
                orchestrator,
                cudaDriver,
                sharedMemoryGi,
                volumes,
                sshPublicKeys,
                List.of(),
                null);
    }

    /**
     * Whether a member's user name may become a login on a cluster: a lower-case POSIX name (so it is safe as a
     * command argument and as a file name) that is not a system account.
     */
    public static boolean isLoginUser(String name) {
        return LOGIN_USER.matcher(name).matches() && !RESERVED_USERS.contains(name);
    }

    public ClusterRef ref() {
        return new ClusterRef(reservationId, tenant);
    }

    /** The same cluster on these of its nodes: a build that starts with the nodes already free. */
    public ClusterBlueprint onNodes(List<String> some) {
        require(nodes.containsAll(some), "a cluster is built only on its own nodes");
        return new ClusterBlueprint(
                reservationId,
                tenant,
                project,
                some,
                gpusPerNode,
                startsAt,
                endsAt,
                orchestrator,
                cudaDriver,
                sharedMemoryGi,
                volumes,
                sshPublicKeys,
                loginUsers,
                keysFor);
    }

    public int totalGpus() {
        return nodes.size() * gpusPerNode;
    }

    /** The major version ({@code 550} of {@code 550.54.15}), which node labels and selectors match. */
    public String cudaDriverMajor() {
        return majorOf(cudaDriver);
    }

    /** The major version of a CUDA driver version. */
    public static String majorOf(String cudaDriver) {
        int dot = cudaDriver.indexOf('.');
        return dot < 0 ? cudaDriver : cudaDriver.substring(0, dot);
    }

    /** A persistent volume for the window; {@code name} is a DNS label. */
    public record Volume(String name, int sizeGi) {

        private static final Pattern DNS_LABEL = Pattern.compile("^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$");

        public Volume {
            require(
                    name != null && DNS_LABEL.matcher(name).matches(),
                    "volume name must be lower-case letters, digits and hyphens (at most 63)");
            require(sizeGi > 0, "volume sizeGi must be positive");
        }
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
