package dev.allot.provisioning.driver.slurm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.DriverFailedException;

/**
 * The booked shared memory on Slurm, checked before anything is created: a job's {@code /dev/shm} is a tmpfs on
 * the node, bounded by the node's memory, so every reserved node must declare ({@code RealMemory} in slurm.conf, as
 * its slurmd reports) at least the booked size. A node that cannot is a booking Slurm cannot honour: the driver
 * refuses it for good (retrying cannot add memory) and the cluster fails with the reason.
 */
final class SlurmSharedMemory {

	private final SlurmNodes nodes;

	SlurmSharedMemory(SlurmNodes nodes) {
		this.nodes = nodes;
	}

	void require(ClusterBlueprint spec) {
		long askedMiB = spec.sharedMemoryGi() * 1024L;
		Map<String, Long> memory = nodes.realMemoryMiB();
		List<String> tooSmall = new ArrayList<>();
		for (String node : spec.nodes()) {
			Long mib = memory.get(node);
			if (mib != null && mib < askedMiB) {
				tooSmall.add(node + " (RealMemory=" + mib + " MiB)");
			}
		}
		if (!tooSmall.isEmpty()) {
			throw new DriverFailedException("cluster.sharedMemoryGi: " + spec.sharedMemoryGi() + " GiB of /dev/shm ("
					+ askedMiB + " MiB) does not fit in the memory of Slurm node(s) " + String.join(", ", tooSmall)
					+ "; see scontrol show node", false);
		}
	}

}
