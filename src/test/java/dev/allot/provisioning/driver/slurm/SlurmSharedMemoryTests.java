package dev.allot.provisioning.driver.slurm;

import java.util.List;

import dev.allot.provisioning.Specs;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.DriverFailedException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The booked shared memory against a real slurmctld ({@link SlurmCluster}): the fake GPU nodes declare
 * {@code RealMemory=512000} (500 GiB), which bounds the /dev/shm a reservation on them can have.
 */
@ExtendWith(SlurmCluster.class)
class SlurmSharedMemoryTests {

	private SlurmCluster slurm;

	private SlurmDriver driver;

	@BeforeEach
	void driver(SlurmCluster slurm) {
		this.slurm = slurm;
		this.driver = slurm.driver();
	}

	@Test
	void sharedMemoryAboveANodesRealMemoryIsRefusedForGoodAndNothingIsCreated() {
		ClusterBlueprint spec = withShm(Specs.slurm(List.of("gpu-001", "gpu-002")), 501);

		assertThatThrownBy(() -> driver.provision(spec)).isInstanceOf(DriverFailedException.class)
			.hasMessageContaining("cluster.sharedMemoryGi: 501 GiB")
			.hasMessageContaining("gpu-001 (RealMemory=512000 MiB), gpu-002 (RealMemory=512000 MiB)")
			.satisfies(ex -> assertThat(((DriverFailedException) ex).retryable()).isFalse());

		String name = spec.ref().name();
		assertThat(shown("reservation", name)).contains("not found").doesNotContain("ReservationName=");
		assertThat(shown("partition", name)).contains("not found").doesNotContain("PartitionName=");
		assertThat(slurm.run("sacctmgr", "-n", "-P", "show", "account", spec.tenant(), "format=account").stdout())
			.isBlank();
	}

	@Test
	void sharedMemoryEqualToTheNodesRealMemoryIsProvisioned() {
		ClusterBlueprint spec = withShm(Specs.slurm(List.of("gpu-003")), 500);

		assertThat(driver.provision(spec).nodes()).containsExactly("gpu-003");

		assertThat(slurm.run("scontrol", "show", "reservation", spec.ref().name(), "-o").stdout())
			.contains(spec.ref().name());
		driver.teardown(spec.ref());
	}

	private String shown(String kind, String name) {
		SlurmCluster.Result result = slurm.run("scontrol", "show", kind, name, "-o");
		return result.stdout() + result.stderr();
	}

	private static ClusterBlueprint withShm(ClusterBlueprint s, int gi) {
		return new ClusterBlueprint(s.reservationId(), s.tenant(), s.project(), s.nodes(), s.gpusPerNode(), s.startsAt(),
				s.endsAt(), s.orchestrator(), s.cudaDriver(), gi, s.volumes(), s.sshPublicKeys());
	}

}
