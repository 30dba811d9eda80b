package dev.allot.cli;

import dev.allot.client.ApiException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Waits for an existing reservation's cluster: a pipeline step that booked earlier, or one that timed out. */
@Command(name = "wait", description = "Wait until a reservation's cluster is in a state, e.g. READY.")
class WaitCommand implements Callable<Integer> {

    @Mixin
    Session session;

    @Parameters(paramLabel = "RESERVATION")
    UUID id;

    @Option(
            names = "--for",
            paramLabel = "STATE",
            defaultValue = "READY",
            description = "The cluster state (default: ${DEFAULT-VALUE}).")
    String state;

    @Option(
            names = "--wait-timeout",
            defaultValue = "PT30M",
            description = "Give up waiting after (default: ${DEFAULT-VALUE}); then exit 6.")
    Duration waitTimeout;

    @Override
    public Integer call() throws ApiException {
        ClusterWait.Outcome waited =
                ClusterWait.until(this.session, this.session.tenant(), this.id, this.state, this.waitTimeout);
        if (this.session.json()) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("cluster", waited.cluster());
            out.put("outcome", waited.result().name());
            if (waited.reason() != null) {
                out.put("reason", waited.reason());
            }
            out.put("exitCode", waited.exitCode());
            this.session.printJson(out);
        } else if (waited.reached()) {
            this.session.println("Cluster " + waited.cluster().getState() + StatusCommand.endpoints(waited.cluster()));
        }
        return waited.exitCode();
    }
}
