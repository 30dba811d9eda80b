package dev.allot.provisioning.driver;

import java.util.List;

/**
 * The outcome of a successful {@link ClusterDriver#provision}: the cluster exists on exactly these nodes, with
 * these volumes.
 *
 * @param steps what the driver did to build it, in order, each with where to see it: the timeline prints these
 * and nothing else about the build, so a driver that adds a part (shared memory, SSH keys) adds its step (volumes
 * are reported on their own, {@code volumes})
 */
public record ProvisionedCluster(
        ClusterRef ref,
        List<String> nodes,
        ClusterAccess access,
        List<ProvisionedVolume> volumes,
        List<BuildStep> steps) {

    public ProvisionedCluster {
        nodes = List.copyOf(nodes);
        volumes = List.copyOf(volumes);
        steps = List.copyOf(steps);
    }

    /** The same cluster, as it stands once its nodes were brought to these. */
    public ProvisionedCluster onNodes(List<String> converged) {
        return new ProvisionedCluster(ref, converged, access, volumes, steps);
    }
}
