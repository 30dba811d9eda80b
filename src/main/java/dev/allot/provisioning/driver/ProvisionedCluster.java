package dev.allot.provisioning.driver;

import java.util.List;

/** The outcome of a successful {@link ClusterDriver#provision}: the cluster exists on exactly these nodes. */
public record ProvisionedCluster(ClusterRef ref, List<String> nodes, ClusterAccess access) {

	public ProvisionedCluster {
		nodes = List.copyOf(nodes);
	}

}
