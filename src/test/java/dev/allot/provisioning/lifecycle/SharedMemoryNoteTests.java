package dev.allot.provisioning.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.provisioning.Specs;
import dev.allot.provisioning.driver.ClusterAccess;
import dev.allot.provisioning.driver.ClusterBlueprint;
import java.util.List;
import org.junit.jupiter.api.Test;

class SharedMemoryNoteTests {

    private final ClusterBlueprint spec = Specs.kubernetes(List.of("gpu-001"));

    @Test
    void kubernetesNamesTheAdmissionPolicyThatRefusesPods() {
        assertThat(SharedMemoryNote.of(spec, new ClusterAccess.Kubernetes("ns", "https://k", "config")))
                .isEqualTo(" Pods without a memory-backed /dev/shm of 64 GiB are refused (kubectl get"
                        + " validatingadmissionpolicy allot-shm-" + spec.reservationId() + ").");
    }

    @Test
    void slurmSaysOnlyThatTheNodesMemoryWasChecked() {
        assertThat(SharedMemoryNote.of(spec, new ClusterAccess.Slurm("login", "t", "p", "r")))
                .isEqualTo(" 64 GiB of /dev/shm fits in every node's RealMemory (scontrol show node).");
    }

    @Test
    void theFakeDriverClaimsNothing() {
        assertThat(SharedMemoryNote.of(spec, new ClusterAccess.Fake("fake://x")))
                .isEmpty();
    }
}
