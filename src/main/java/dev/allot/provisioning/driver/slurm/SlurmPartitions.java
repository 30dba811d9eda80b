package dev.allot.provisioning.driver.slurm;

import dev.allot.provisioning.driver.ClusterRef;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A reservation's Slurm partition ({@code allot-<reservation id>}) on the reserved nodes, open only to the tenant's
 * account: {@code scontrol create}, {@code update}, {@code show} and {@code delete partition}.
 */
final class SlurmPartitions {

    private final SlurmCommands slurm;

    private final SlurmErrors errors;

    private final SlurmNodes nodes;

    SlurmPartitions(SlurmCommands slurm, SlurmErrors errors, SlurmNodes nodes) {
        this.slurm = slurm;
        this.errors = errors;
        this.nodes = nodes;
    }

    /** Returns what was done: {@code created}, {@code updated} or {@code found}. */
    String ensure(ClusterRef ref, List<String> nodes) {
        Optional<SlurmRecord> existing = find(ref);
        String nodeList = String.join(",", nodes);
        if (existing.isEmpty()) {
            SlurmCommands.Result created = slurm.run(
                    "scontrol",
                    "create",
                    "PartitionName=" + ref.name(),
                    "Nodes=" + nodeList,
                    "AllowAccounts=" + ref.tenant(),
                    "State=UP",
                    "MaxTime=INFINITE");
            if (!created.ok() && find(ref).isEmpty()) {
                throw errors.failed("scontrol create partition " + ref.name(), created, nodes);
            }
            return created.ok() ? "created" : "found";
        } else if (!Set.copyOf(this.nodes.hostnames(existing.get().get("Nodes")))
                        .equals(Set.copyOf(nodes))
                || !existing.get().get("AllowAccounts").equals(ref.tenant())) {
            SlurmCommands.Result updated = slurm.run(
                    "scontrol",
                    "update",
                    "PartitionName=" + ref.name(),
                    "Nodes=" + nodeList,
                    "AllowAccounts=" + ref.tenant(),
                    "State=UP");
            if (!updated.ok()) {
                throw errors.failed("scontrol update partition " + ref.name(), updated, nodes);
            }
            return "updated";
        }
        return "found";
    }

    Optional<SlurmRecord> find(ClusterRef ref) {
        SlurmCommands.Result shown = slurm.run("scontrol", "show", "partition", ref.name(), "--oneliner");
        if (!shown.ok()) {
            if (SlurmErrors.notFound(shown)) {
                return Optional.empty();
            }
            throw errors.failed("scontrol show partition", shown, List.of());
        }
        return Optional.of(SlurmRecord.parse(shown.stdout()));
    }

    /** Deletes the partition; a partition already gone is no failure. */
    void delete(ClusterRef ref) {
        SlurmCommands.Result partition = slurm.run("scontrol", "delete", "PartitionName=" + ref.name());
        if (!partition.ok() && find(ref).isPresent()) {
            throw errors.failed("scontrol delete partition " + ref.name(), partition, List.of());
        }
    }
}
