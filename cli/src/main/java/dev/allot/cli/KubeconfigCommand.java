package dev.allot.cli;

import dev.allot.client.ApiException;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** Prints the namespace-scoped kubeconfig (YAML), for {@code allot kubeconfig ID > kubeconfig}. */
@Command(name = "kubeconfig", description = "Print the kubeconfig of a reservation's READY Kubernetes cluster.")
class KubeconfigCommand implements Callable<Integer> {

    @Mixin
    Session session;

    @Parameters(paramLabel = "RESERVATION")
    UUID id;

    @Override
    public Integer call() throws ApiException {
        String kubeconfig = this.session.text(
                "/api/v1/tenants/" + Session.encode(this.session.tenant()) + "/reservations/" + this.id
                        + "/cluster/kubeconfig",
                "application/yaml, */*");
        this.session.out().print(kubeconfig);
        this.session.out().flush();
        return ExitCodes.OK;
    }
}
