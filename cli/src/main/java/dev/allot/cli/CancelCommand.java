package dev.allot.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.allot.client.ApiException;
import dev.allot.client.api.ReservationsApi;
import dev.allot.client.model.ReservationBody;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Cancels; idempotent, as a cleanup step that runs twice (or after --cancel-on-failure) needs: a reservation that
 * is already cancelled or over (the server's 409 reservation_cancelled, _completed, _ending, _failed,
 * _preempted) ends with exit 0 and its current state.
 */
@Command(
        name = "cancel",
        description = "Cancel a reservation; its nodes are freed from the next whole minute. "
                + "Exit 0 as well when it is already cancelled or over.")
class CancelCommand implements Callable<Integer> {

    /** The server's codes for a reservation that cannot be cancelled because it already is, or is over. */
    static final Set<String> ALREADY = Set.of(
            "reservation_cancelled",
            "reservation_completed",
            "reservation_ending",
            "reservation_failed",
            "reservation_preempted");

    @Mixin
    Session session;

    @Parameters(paramLabel = "RESERVATION")
    UUID id;

    @Option(
            names = "--wait",
            paramLabel = "STATE",
            description = "Wait for the cluster state, e.g. DELETED (its nodes are then free for the next booking).")
    String waitFor;

    @Option(
            names = "--wait-timeout",
            defaultValue = "PT10M",
            description = "Give up waiting after (default: ${DEFAULT-VALUE}); then exit 6.")
    Duration waitTimeout;

    @Override
    public Integer call() throws ApiException {
        ReservationsApi reservations = new ReservationsApi(this.session.client());
        ReservationBody cancelled;
        try {
            cancelled = reservations.cancelReservation(this.session.tenant(), this.id, null);
        } catch (ApiException ex) {
            JsonNode problem = ex.getCode() == 409 ? Failures.parse(ex.getResponseBody()) : null;
            if (problem == null || !ALREADY.contains(problem.path("code").asText())) {
                throw ex;
            }
            cancelled = reservations.getReservation(this.session.tenant(), this.id);
            this.session
                    .err()
                    .println("allot: reservation " + this.id + " is already " + cancelled.getStatus()
                            + "; nothing to cancel");
            this.session.err().flush();
        }
        int exit = ExitCodes.OK;
        if (this.waitFor != null) {
            exit = ClusterWait.until(this.session, this.session.tenant(), this.id, this.waitFor, this.waitTimeout)
                    .exitCode();
        }
        if (this.session.json()) {
            this.session.printJson(cancelled);
        } else {
            this.session.println(cancelled.getId() + " " + cancelled.getStatus());
        }
        return exit;
    }
}
