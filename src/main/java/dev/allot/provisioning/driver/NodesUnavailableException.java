package dev.allot.provisioning.driver;

import java.util.List;

/**
 * The infrastructure refuses to dedicate these nodes: they are unknown to it, already held by another
 * reservation (Slurm refuses overlapping reservations; Kubernetes nodes carry another reservation's label),
 * or fewer were granted than asked for. Retrying the same request does not help.
 */
public class NodesUnavailableException extends ClusterDriverException {

	private final List<String> nodes;

	public NodesUnavailableException(List<String> nodes, String reason) {
		super("Nodes " + nodes + " cannot be dedicated: " + reason, false, null);
		this.nodes = List.copyOf(nodes);
	}

	public List<String> nodes() {
		return nodes;
	}

}
