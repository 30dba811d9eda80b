package dev.allot.cli;

import dev.allot.client.ApiException;
import dev.allot.client.api.ReservationsApi;
import dev.allot.client.model.ReservationBody;
import dev.allot.client.model.ReservationRequest;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Books, and optionally waits for the cluster. Every request carries an idempotency key (the one given, else one
 * made here) and the window is fixed before the first attempt, so a retry gets the same reservation back instead
 * of a second one. Once booked, the booking is never lost: whatever ends the wait, {@code -o json} prints it.
 */
@Command(name = "book", description = "Book whole nodes for a window; optionally wait until the cluster is READY.")
class BookCommand implements Callable<Integer> {

    @Mixin
    Session session;

    @Mixin
    BookingOptions booking;

    @Option(
            names = "--idempotency-key",
            description = "Retries of the same request with the same key return the same "
                    + "reservation (default: a new key, printed with the booking). Without --start the window chosen for a "
                    + "key is kept beside the credentials, so a step run again with the key sends the same window.")
    String idempotencyKey;

    @Option(names = "--wait", paramLabel = "STATE", description = "Wait for the cluster state, e.g. READY.")
    String waitFor;

    @Option(
            names = "--wait-timeout",
            defaultValue = "PT30M",
            description = "Give up waiting after (default: ${DEFAULT-VALUE}); then exit 6, " + "the booking kept.")
    Duration waitTimeout;

    @Option(
            names = "--cancel-on-failure",
            description = "When the wait ends without the state (timeout, FAILED, DEGRADED, an error), cancel the "
                    + "booking instead of keeping it; the exit code still says why.")
    boolean cancelOnFailure;

    @Override
    public Integer call() throws ApiException {
        String key = this.idempotencyKey != null ? this.idempotencyKey : "allot-cli-" + UUID.randomUUID();
        ReservationRequest request = this.booking.request(this.session, this.idempotencyKey);
        String tenant = this.session.tenant();
        ReservationsApi reservations = new ReservationsApi(this.session.client());
        Booked booked = new Booked(this.session, key);
        // from before the request on: an interrupt while it is under way still prints the key to retry with
        Runtime.getRuntime().addShutdownHook(booked.onInterrupt());
        ReservationBody reservation;
        try {
            reservation = book(reservations, tenant, request, key);
        } catch (ApiException | RuntimeException ex) {
            booked.removeHook();
            throw ex;
        }
        booked.answered(reservation);
        if (!this.session.json()) {
            this.session.println("Booked " + reservation.getId() + ": " + reservation.getGpus() + " GPUs in "
                    + reservation.getPool() + " " + reservation.getStartsAt().toInstant() + " .. "
                    + reservation.getEndsAt().toInstant() + ", " + BookingOptions.price(reservation.getQuote())
                    + " (idempotency key " + key + ")");
        }
        if (this.waitFor == null) {
            booked.removeHook();
            return booked.finish(Booked.Outcome.BOOKED, null, ExitCodes.OK);
        }
        try {
            ClusterWait.Outcome waited;
            try {
                waited = ClusterWait.until(
                        this.session, tenant, reservation.getId(), this.waitFor, this.waitTimeout, booked::seen);
            } catch (ApiException | RuntimeException ex) {
                String why = ex instanceof ApiException api && api.getCode() != 0
                        ? "the wait broke off: HTTP " + api.getCode()
                        : "the wait broke off: " + Failures.networkReason(ex);
                return failed(reservations, booked, Booked.Outcome.WAIT_FAILED, why, ExitCodes.WAIT_FAILED);
            }
            if (waited.reached()) {
                if (!this.session.json()) {
                    this.session.println(
                            "Cluster " + waited.cluster().getState() + StatusCommand.endpoints(waited.cluster()));
                }
                return booked.finish(Booked.Outcome.REACHED, null, ExitCodes.OK);
            }
            Booked.Outcome outcome =
                    waited.result() == ClusterWait.Result.TIMED_OUT ? Booked.Outcome.TIMED_OUT : Booked.Outcome.ENDED;
            return failed(reservations, booked, outcome, waited.reason(), waited.exitCode());
        } finally {
            booked.removeHook();
        }
    }

    /** Books; once more in the earliest window as it is now if the one the CLI chose had begun on arrival. */
    private ReservationBody book(ReservationsApi reservations, String tenant, ReservationRequest request, String key)
            throws ApiException {
        try {
            return reservations.createReservation(tenant, request, key);
        } catch (ApiException refused) {
            ReservationRequest again = this.booking.chosenAgain(this.session, this.idempotencyKey, refused);
            if (again == null) {
                throw refused;
            }
            return reservations.createReservation(tenant, again, key);
        }
    }

    private int failed(ReservationsApi reservations, Booked booked, Booked.Outcome outcome, String why, int exitCode) {
        String id = booked.reservation().getId().toString();
        if (this.cancelOnFailure) {
            try {
                booked.cancelled(reservations.cancelReservation(
                        this.session.tenant(), booked.reservation().getId(), null));
                this.session
                        .err()
                        .println("allot: " + why + "; cancelled reservation " + id + " (--cancel-on-failure)");
            } catch (ApiException | RuntimeException ex) {
                this.session
                        .err()
                        .println("allot: " + why + "; cancelling reservation " + id + " failed too ("
                                + (ex instanceof ApiException api
                                        ? "HTTP " + api.getCode()
                                        : Failures.networkReason(ex))
                                + "): it is still booked, cancel it with: allot cancel " + id);
            }
        } else {
            this.session
                    .err()
                    .println("allot: " + why + "; reservation " + id
                            + " is still booked: keep it, wait again with: allot wait " + id + " --for " + this.waitFor
                            + ", or cancel it with: allot cancel " + id);
        }
        this.session.err().flush();
        return booked.finish(outcome, why, exitCode);
    }
}
