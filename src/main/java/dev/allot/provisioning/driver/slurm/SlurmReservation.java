package dev.allot.provisioning.driver.slurm;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/** A Slurm reservation as {@code scontrol show reservation} reports it, node list expanded. */
record SlurmReservation(String name, List<String> nodes, List<String> accounts, Instant startsAt, Instant endsAt) {

	boolean matches(List<String> wantedNodes, String account, Instant end) {
		return Set.copyOf(nodes).equals(Set.copyOf(wantedNodes)) && accounts.equals(List.of(account))
				&& endsAt.equals(end);
	}

}
