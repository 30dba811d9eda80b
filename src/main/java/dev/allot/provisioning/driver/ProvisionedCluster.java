package dev.allot.provisioning.driver;

import java.util.List;

/**
 * The outcome of a successful {@link ClusterDriver#provision}: the cluster exists on exactly these nodes, with
 * these volumes.
 *
 * @param done what the driver did besides the cluster and its volumes, each a short sentence saying where it can be
 * seen (for the cluster's timeline)
 */
public record ProvisionedCluster(ClusterRef ref, List<String> nodes, ClusterAccess access,
		List<ProvisionedVolume> volumes, List<String> done) {

	public ProvisionedCluster {
		nodes = List.copyOf(nodes);
		volumes = List.copyOf(volumes);
		done = List.copyOf(done);
	}

	public ProvisionedCluster(ClusterRef ref, List<String> nodes, ClusterAccess access) {
		this(ref, nodes, access, List.of(), List.of());
	}

	public ProvisionedCluster(ClusterRef ref, List<String> nodes, ClusterAccess access,
			List<ProvisionedVolume> volumes) {
		this(ref, nodes, access, volumes, List.of());
	}

}
