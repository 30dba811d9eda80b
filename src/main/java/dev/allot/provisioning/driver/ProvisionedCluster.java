package dev.allot.provisioning.driver;

import java.util.List;

/**
 * The outcome of a successful {@link ClusterDriver#provision}: the cluster exists on exactly these nodes.
 *
 * @param steps what the driver did to build it, in order, each with where to see it: the timeline prints these
 * and nothing else about the build, so a driver that adds a part (shared memory, volumes, SSH keys) adds its step
 */
public record ProvisionedCluster(ClusterRef ref, List<String> nodes, ClusterAccess access, List<BuildStep> steps) {

	public ProvisionedCluster {
		nodes = List.copyOf(nodes);
		steps = List.copyOf(steps);
	}

}
