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
        this(nodes, reason, false);
    }

    private NodesUnavailableException(List<String> nodes, String reason, boolean retryable) {
        super("Nodes " + nodes + " cannot be dedicated: " + reason, retryable, null);
        this.nodes = List.copyOf(nodes);
    }

    /**
     * Nodes another reservation's cluster still holds. The booking gave them to this one, so that cluster is
     * being torn down (its reservation was cancelled, or ended early): they come free by themselves, and the
     * step tries again with its backoff instead of failing a booking that did nothing wrong. Should they never
     * come free, the retries run out and the cluster fails as before.
     */
    public static NodesUnavailableException heldByAnother(List<String> nodes, String reason) {
        return new NodesUnavailableException(nodes, reason, true);
    }

    public List<String> nodes() {
        return nodes;
    }
}
