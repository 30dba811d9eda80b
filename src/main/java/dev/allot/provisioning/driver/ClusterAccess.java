package dev.allot.provisioning.driver;

/** How a tenant reaches its cluster. Never stored by Allot: drivers read it from the infrastructure on demand. */
public sealed interface ClusterAccess {

    /**
     * A kubeconfig scoped to the reservation's namespace. It holds a bearer token, so {@link #toString()}
     * leaves it out: it must reach the tenant and nothing else (no log, no database).
     */
    record Kubernetes(String namespace, String server, String kubeconfig) implements ClusterAccess {

        @Override
        public String toString() {
            return "Kubernetes[namespace=" + namespace + ", server=" + server + ", kubeconfig=<redacted>]";
        }
    }

    /** Where to log in and what to pass to {@code sbatch}: {@code -A account -p partition --reservation=...}. */
    record Slurm(String loginHost, String account, String partition, String reservation) implements ClusterAccess {}

    /** The fake driver's stand-in. */
    record Fake(String endpoint) implements ClusterAccess {}
}
