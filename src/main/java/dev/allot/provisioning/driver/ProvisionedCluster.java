package dev.allot.provisioning.driver;

import java.util.List;

/**
 * The outcome of a successful {@link ClusterDriver#provision}: the cluster exists on exactly these nodes.
 *
 * @param done what the driver did besides the cluster itself, each a short sentence saying where it can be seen
 * (for the cluster's timeline)
 */
public record ProvisionedCluster(ClusterRef ref, List<String> nodes, ClusterAccess access, List<String> done) {

	public ProvisionedCluster {
		nodes = List.copyOf(nodes);
		done = List.copyOf(done);
	}

	public ProvisionedCluster(ClusterRef ref, List<String> nodes, ClusterAccess access) {
		this(ref, nodes, access, List.of());
	}

}
