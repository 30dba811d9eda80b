package dev.allot.cli;

import dev.allot.client.ApiException;
import dev.allot.client.api.ClustersApi;
import dev.allot.client.model.ClusterStatusBody;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Prints an OpenSSH config block for a SLURM cluster's login host, for
 * {@code allot ssh-config ID >> ~/.ssh/config}; the key is the one given to book with --ssh-key.
 */
@Command(name = "ssh-config", description = "Print an ssh_config Host block for a reservation's SLURM cluster.")
class SshConfigCommand implements Callable<Integer> {

    @Mixin
    Session session;

    @Parameters(paramLabel = "RESERVATION")
    UUID id;

    @Option(names = "--identity-file", description = "Private key to name in the block.")
    String identityFile;

    @Override
    public Integer call() throws ApiException {
        ClusterStatusBody cluster =
                new ClustersApi(this.session.client()).getClusterStatus(this.session.tenant(), this.id, null, null);
        String host = cluster.getEndpoints() != null ? cluster.getEndpoints().getSshHost() : null;
        if (host == null) {
            throw new CliFailure(
                    ExitCodes.BAD_INPUT,
                    "reservation " + this.id + " has no SSH endpoint (cluster " + cluster.getOrchestrator() + " "
                            + cluster.getState() + ")");
        }
        this.session
                .out()
                .print(block(
                        this.id,
                        host,
                        this.identityFile,
                        cluster.getEndpoints().getSlurmReservation(),
                        cluster.getEndpoints().getSlurmAccount()));
        this.session.out().flush();
        return ExitCodes.OK;
    }

    /** An ssh_config block for a login host given as host, host:port or user@host[:port]. */
    static String block(UUID id, String sshHost, String identityFile, String slurmReservation, String slurmAccount) {
        String host = sshHost;
        String user = null;
        String port = null;
        if (host.contains("@")) {
            user = host.substring(0, host.indexOf('@'));
            host = host.substring(host.indexOf('@') + 1);
        }
        if (host.matches(".*:\\d+")) {
            port = host.substring(host.lastIndexOf(':') + 1);
            host = host.substring(0, host.lastIndexOf(':'));
        }
        StringBuilder block =
                new StringBuilder("Host allot-").append(id.toString(), 0, 8).append('\n');
        block.append("  HostName ").append(host).append('\n');
        if (port != null) {
            block.append("  Port ").append(port).append('\n');
        }
        if (user != null) {
            block.append("  User ").append(user).append('\n');
        }
        if (identityFile != null) {
            block.append("  IdentityFile ").append(identityFile).append('\n');
        }
        if (slurmReservation != null) {
            block.append("  # sbatch --reservation=").append(slurmReservation);
            if (slurmAccount != null) {
                block.append(" --account=").append(slurmAccount);
            }
            block.append('\n');
        }
        return block.toString();
    }
}
