package dev.allot.provisioning.driver;

import org.jspecify.annotations.Nullable;

/**
 * How to reach a cluster, without any credential (those are read from the infrastructure on demand, see
 * {@link ClusterAccess}): what may be stored and shown on a page.
 *
 * @param sshHost the Slurm login host
 * @param slurmAccount what to pass to {@code sbatch -A}
 * @param slurmPartition what to pass to {@code sbatch -p}
 * @param slurmReservation what to pass to {@code sbatch --reservation}
 * @param apiServer the Kubernetes API server the tenant's kubeconfig names
 * @param namespace the reservation's Kubernetes namespace
 * @param other the fake driver's stand-in endpoint
 */
public record Endpoints(
        @Nullable String sshHost,
        @Nullable String slurmAccount,
        @Nullable String slurmPartition,
        @Nullable String slurmReservation,
        @Nullable String apiServer,
        @Nullable String namespace,
        @Nullable String other) {

    public static final Endpoints NONE = new Endpoints(null, null, null, null, null, null, null);

    public static Endpoints of(ClusterAccess access) {
        return switch (access) {
            case ClusterAccess.Slurm slurm ->
                new Endpoints(
                        slurm.loginHost(), slurm.account(), slurm.partition(), slurm.reservation(), null, null, null);
            case ClusterAccess.Kubernetes kubernetes ->
                new Endpoints(null, null, null, null, kubernetes.server(), kubernetes.namespace(), null);
            case ClusterAccess.Fake fake -> new Endpoints(null, null, null, null, null, null, fake.endpoint());
        };
    }
}
