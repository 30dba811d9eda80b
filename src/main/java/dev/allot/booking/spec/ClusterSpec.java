package dev.allot.booking.spec;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The cluster a reservation asks for on its nodes; provisioning builds it. {@code keysFor} is the user whose login
 * the booking's {@code sshPublicKeys} open: the user who booked (set by booking, never by the request), or
 * {@code null} when a service account booked, since it has no login of its own. A key opens no one else's login.
 */
public record ClusterSpec(
        Orchestrator orchestrator,
        @Nullable String cudaDriver,
        @Nullable Integer sharedMemoryGi,
        List<Volume> volumes,
        List<String> sshPublicKeys,
        @Nullable String keysFor) {

    public enum Orchestrator {
        KUBERNETES,
        SLURM
    }

    /** A volume for the window; {@code retain}: it outlives the reservation until the tenant deletes it. */
    public record Volume(String name, int sizeGi, boolean retain) {

        public Volume(String name, int sizeGi) {
            this(name, sizeGi, false);
        }
    }

    public ClusterSpec {
        volumes = List.copyOf(volumes);
        sshPublicKeys = List.copyOf(sshPublicKeys);
    }

    /** What a request asks for: whose login its keys open is booking's to say ({@link #keysFor}). */
    public ClusterSpec(
            Orchestrator orchestrator,
            @Nullable String cudaDriver,
            @Nullable Integer sharedMemoryGi,
            List<Volume> volumes,
            List<String> sshPublicKeys) {
        this(orchestrator, cudaDriver, sharedMemoryGi, volumes, sshPublicKeys, null);
    }

    public ClusterSpec keysFor(@Nullable String user) {
        return new ClusterSpec(orchestrator, cudaDriver, sharedMemoryGi, volumes, sshPublicKeys, user);
    }

    public static ClusterSpec kubernetes() {
        return new ClusterSpec(Orchestrator.KUBERNETES, null, null, List.of(), List.of());
    }
}
