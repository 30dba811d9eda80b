package dev.allot.provisioning.driver;

import java.util.List;

/**
 * The outcome of a successful {@link ClusterDriver#provision}: the cluster exists on exactly these nodes, with
 * these volumes.
 */
public record ProvisionedCluster(ClusterRef ref, List<String> nodes, ClusterAccess access,
		List<ProvisionedVolume> volumes) {

	public ProvisionedCluster {
		nodes = List.copyOf(nodes);
		volumes = List.copyOf(volumes);
	}

	public ProvisionedCluster(ClusterRef ref, List<String> nodes, ClusterAccess access) {
		this(ref, nodes, access, List.of());
	}

}
