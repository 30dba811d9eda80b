package dev.allot.provisioning.lifecycle;

import dev.allot.booking.Reservation;
import dev.allot.booking.spec.ClusterSpec;
import dev.allot.provisioning.driver.ClusterBlueprint;
import java.util.List;

/** Turns a booked reservation into what its driver builds, with the configured defaults for what it left open. */
final class ClusterBlueprints {

    private ClusterBlueprints() {}

    /** Refuses, with {@link IllegalArgumentException}, a booking the driver cannot build: retrying cannot help. */
    static ClusterBlueprint of(Reservation r, LifecycleProperties defaults, List<String> loginUsers) {
        ClusterSpec asked = r.cluster();
        Integer shm = asked.sharedMemoryGi();
        return new ClusterBlueprint(
                r.id(),
                r.tenant(),
                r.project(),
                r.nodes(),
                r.gpus() / r.nodes().size(),
                r.startsAt(),
                r.endsAt(),
                asked.orchestrator(),
                asked.cudaDriver() != null ? asked.cudaDriver() : defaults.defaultCudaDriver(),
                shm != null && shm > 0 ? shm : defaults.defaultSharedMemoryGi(),
                asked.volumes().stream()
                        .map(v -> new ClusterBlueprint.Volume(v.name(), v.sizeGi()))
                        .toList(),
                asked.sshPublicKeys(),
                loginUsers,
                asked.keysFor());
    }
}
