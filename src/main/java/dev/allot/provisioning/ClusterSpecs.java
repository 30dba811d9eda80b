package dev.allot.provisioning;

import dev.allot.booking.Reservation;

/** Turns a booked reservation into what its driver builds, with the configured defaults for what it left open. */
final class ClusterSpecs {

	private ClusterSpecs() {
	}

	/** Refuses, with {@link IllegalArgumentException}, a booking the driver cannot build: retrying cannot help. */
	static ClusterSpec of(Reservation r, LifecycleProperties defaults) {
		dev.allot.booking.ClusterSpec asked = r.cluster();
		Integer shm = asked.sharedMemoryGi();
		return new ClusterSpec(r.id(), r.tenant(), r.project(), r.nodes(), r.gpus() / r.nodes().size(), r.startsAt(),
				r.endsAt(), orchestrator(r), asked.cudaDriver() != null ? asked.cudaDriver() : defaults.defaultCudaDriver(),
				shm != null && shm > 0 ? shm : defaults.defaultSharedMemoryGi(),
				asked.volumes().stream().map(v -> new ClusterSpec.Volume(v.name(), v.sizeGi())).toList(),
				asked.sshPublicKeys());
	}

	static Orchestrator orchestrator(Reservation r) {
		return Orchestrator.valueOf(r.cluster().orchestrator().name());
	}

}
