package dev.allot.provisioning.lifecycle;

import dev.allot.provisioning.driver.ClusterAccess;
import dev.allot.provisioning.driver.ClusterBlueprint;

/** What the driver did about the booked /dev/shm, for the timeline: only what happened, and where to see it. */
final class SharedMemoryNote {

    private SharedMemoryNote() {}

    static String of(ClusterBlueprint spec, ClusterAccess access) {
        String size = spec.sharedMemoryGi() + " GiB";
        return switch (access) {
            case ClusterAccess.Kubernetes k ->
                " Pods without a memory-backed /dev/shm of " + size
                        + " are refused (kubectl get validatingadmissionpolicy allot-shm-" + spec.reservationId()
                        + ").";
            case ClusterAccess.Slurm s ->
                " " + size + " of /dev/shm fits in every node's RealMemory (scontrol show node).";
            case ClusterAccess.Fake f -> "";
        };
    }
}
