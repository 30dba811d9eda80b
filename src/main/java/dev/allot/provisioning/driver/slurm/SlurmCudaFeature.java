package dev.allot.provisioning.driver.slurm;

import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.NodesUnavailableException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Pins a cluster's CUDA driver on Slurm with a node feature named {@code cuda<major>} (e.g. {@code cuda550}), which
 * the site declares on each node in {@code slurm.conf} ({@code Features=cuda550}). Provisioning refuses nodes that
 * do not carry the booked driver's feature, and creates the reservation with {@code Features=cuda550}, so that
 * {@code scontrol show reservation} and every job in it see the constraint, and a job asking for another driver
 * ({@code --constraint=cuda535}) finds no node there.
 */
final class SlurmCudaFeature {

    static final String PREFIX = "cuda";

    private final SlurmCommands slurm;

    private final SlurmErrors errors;

    SlurmCudaFeature(SlurmCommands slurm, SlurmErrors errors) {
        this.slurm = slurm;
        this.errors = errors;
    }

    /** The feature that stands for the blueprint's driver: {@code cuda550} for {@code 550.54.15}. */
    static String of(ClusterBlueprint spec) {
        return PREFIX + spec.cudaDriverMajor();
    }

    /** Refuses (not retryable) when a node does not carry the feature; else the command that shows it. */
    String requireOnNodes(ClusterBlueprint spec) {
        return requireOnNodes(spec.nodes(), of(spec), "CUDA driver " + spec.cudaDriver());
    }

    /** The same for nodes joining a reservation (a replacement): {@code feature} is the reservation's. */
    String requireOnNodes(List<String> nodes, String feature, String driver) {
        List<String> lacking = new ArrayList<>();
        List<String> lackingNodes = new ArrayList<>();
        for (String node : nodes) {
            SlurmCommands.Result shown = slurm.run("scontrol", "show", "node", node, "--oneliner");
            if (!shown.ok()) {
                if (SlurmErrors.notFound(shown)) {
                    throw new NodesUnavailableException(List.of(node), "Slurm does not know it");
                }
                throw errors.failed("scontrol show node " + node, shown, List.of(node));
            }
            String features = SlurmRecord.parse(shown.stdout()).get("AvailableFeatures");
            if (!Set.of(features.split(",")).contains(feature)) {
                lackingNodes.add(node);
                lacking.add(node + " (AvailableFeatures=" + (features.isEmpty() ? "none" : features) + ")");
            }
        }
        if (!lacking.isEmpty()) {
            throw new NodesUnavailableException(
                    lackingNodes,
                    driver + " needs Slurm node feature " + feature + ", which " + String.join(", ", lacking)
                            + " does not carry: declare it in slurm.conf (NodeName=... Features=" + feature + ")");
        }
        return "scontrol show node " + String.join(",", nodes);
    }
}
