package dev.allot.cli;

import dev.allot.client.ApiException;
import dev.allot.client.api.ReservationsApi;
import dev.allot.client.model.CursorPageReservationBody;
import dev.allot.client.model.ReservationBody;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The tenant's reservations: what a pipeline booked, e.g. to find one it lost track of. */
@Command(name = "list", description = "List the tenant's reservations, newest first.")
class ListCommand implements Callable<Integer> {

    @Mixin
    Session session;

    @Option(names = "--status", description = "Only this status, e.g. CONFIRMED or ACTIVE.")
    String status;

    @Option(names = "--size", defaultValue = "50", description = "At most this many (default: ${DEFAULT-VALUE}).")
    int size;

    @Override
    public Integer call() throws ApiException {
        CursorPageReservationBody page = new ReservationsApi(this.session.client())
                .listReservations(
                        this.session.tenant(), this.status, null, null, null, null, this.size, null, null, null);
        if (this.session.json()) {
            this.session.printJson(page);
            return ExitCodes.OK;
        }
        for (ReservationBody reservation : page.getItems()) {
            this.session.println(reservation.getId() + " " + reservation.getStatus() + " " + reservation.getProject()
                    + " " + reservation.getGpus() + " GPUs in " + reservation.getPool() + " "
                    + reservation.getStartsAt().toInstant() + " .. "
                    + reservation.getEndsAt().toInstant());
        }
        return ExitCodes.OK;
    }
}
