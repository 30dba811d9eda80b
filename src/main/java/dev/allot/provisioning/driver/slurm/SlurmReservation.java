package dev.allot.provisioning.driver.slurm;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * A Slurm reservation as {@code scontrol show reservation} reports it, node list expanded.
 *
 * @param features its {@code Features} (the CUDA driver's node feature), empty when none
 */
record SlurmReservation(
        String name, List<String> nodes, List<String> accounts, Instant startsAt, Instant endsAt, String features) {

    boolean matches(List<String> wantedNodes, String account, Instant end) {
        return Set.copyOf(nodes).equals(Set.copyOf(wantedNodes))
                && accounts.equals(List.of(account))
                && endsAt.equals(end);
    }
}
