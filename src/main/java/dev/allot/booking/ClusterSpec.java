package dev.allot.booking;

import java.util.List;

import org.jspecify.annotations.Nullable;

/** The cluster a reservation asks for on its nodes; provisioning builds it. */
public record ClusterSpec(Orchestrator orchestrator, @Nullable String cudaDriver, @Nullable Integer sharedMemoryGi,
		List<Volume> volumes, List<String> sshPublicKeys) {

	public enum Orchestrator {

		KUBERNETES, SLURM

	}

	/** A volume for the window; {@code retain}: it outlives the reservation until the tenant deletes it. */
	public record Volume(String name, int sizeGi, boolean retain) {

		public Volume(String name, int sizeGi) {
			this(name, sizeGi, false);
		}

	}

	public ClusterSpec {
		volumes = List.copyOf(volumes);
		sshPublicKeys = List.copyOf(sshPublicKeys);
	}

	public static ClusterSpec kubernetes() {
		return new ClusterSpec(Orchestrator.KUBERNETES, null, null, List.of(), List.of());
	}

}
