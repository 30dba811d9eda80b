package dev.allot.cli;

import dev.allot.client.ApiException;
import dev.allot.client.api.ClustersApi;
import dev.allot.client.api.ReservationsApi;
import dev.allot.client.model.ClusterEndpointsBody;
import dev.allot.client.model.ClusterStatusBody;
import dev.allot.client.model.ReservationBody;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "status", description = "Show a reservation and its cluster.")
class StatusCommand implements Callable<Integer> {

    @Mixin
    Session session;

    @Parameters(paramLabel = "RESERVATION")
    UUID id;

    @Override
    public Integer call() throws ApiException {
        String tenant = this.session.tenant();
        ReservationBody reservation = new ReservationsApi(this.session.client()).getReservation(tenant, this.id);
        ClusterStatusBody cluster =
                new ClustersApi(this.session.client()).getClusterStatus(tenant, this.id, null, null);
        if (this.session.json()) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("reservation", reservation);
            out.put("cluster", cluster);
            this.session.printJson(out);
            return ExitCodes.OK;
        }
        this.session.println(reservation.getId() + " " + reservation.getStatus() + ": " + reservation.getGpus()
                + " GPUs in " + reservation.getPool() + " "
                + reservation.getStartsAt().toInstant() + " .. "
                + reservation.getEndsAt().toInstant());
        this.session.println("Cluster " + cluster.getOrchestrator() + " " + cluster.getState() + endpoints(cluster));
        return ExitCodes.OK;
    }

    static String endpoints(ClusterStatusBody cluster) {
        ClusterEndpointsBody endpoints = cluster.getEndpoints();
        if (endpoints == null) {
            return "";
        }
        StringBuilder line = new StringBuilder();
        if (endpoints.getApiServer() != null) {
            line.append(", API server ").append(endpoints.getApiServer());
        }
        if (endpoints.getNamespace() != null) {
            line.append(", namespace ").append(endpoints.getNamespace());
        }
        if (endpoints.getSshHost() != null) {
            line.append(", ssh ").append(endpoints.getSshHost());
        }
        if (endpoints.getOther() != null) {
            line.append(", ").append(endpoints.getOther());
        }
        return line.toString();
    }
}
