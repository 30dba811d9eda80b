package dev.allot.provisioning.driver;

import dev.allot.booking.spec.ClusterChoices;
import dev.allot.booking.spec.ClusterSpec;
import dev.allot.provisioning.driver.DriverProperties.DriverKind;
import dev.allot.shared.InvalidInputException;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Refuses at booking what a pool's driver would not honour. A Kubernetes cluster is reached with its kubeconfig
 * ({@code GET .../cluster/kubeconfig}), never over SSH: there is no login node or bastion to put keys on, so
 * {@code cluster.sshPublicKeys} is refused there rather than stored and ignored.
 */
@Component
class DriverChoices implements ClusterChoices {

    private final DriverProperties properties;

    DriverChoices(DriverProperties properties) {
        this.properties = properties;
    }

    @Override
    public List<InvalidInputException.FieldError> refusals(String pool, ClusterSpec cluster) {
        DriverProperties.Pool config = properties.pools().get(pool);
        DriverKind kind = config == null ? properties.defaultDriver() : config.driver();
        if (kind == DriverKind.KUBERNETES && !cluster.sshPublicKeys().isEmpty()) {
            return List.of(new InvalidInputException.FieldError(
                    "cluster.sshPublicKeys",
                    "pool " + pool
                            + " runs Kubernetes, which is reached with the reservation's kubeconfig, not over SSH: "
                            + "leave the SSH keys out, or book a Slurm pool"));
        }
        return List.of();
    }
}
