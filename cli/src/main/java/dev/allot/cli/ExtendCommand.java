package dev.allot.cli;

import dev.allot.client.ApiException;
import dev.allot.client.ApiResponse;
import dev.allot.client.api.ReservationsApi;
import dev.allot.client.model.ExtendRequest;
import dev.allot.client.model.ReservationBody;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Moves a reservation's end. The server takes an extension only with If-Match (428 without it), so that two
 * pipelines extending at once do not overwrite each other: this reads the reservation's ETag first.
 */
@Command(name = "extend", description = "Move a reservation's end later.")
class ExtendCommand implements Callable<Integer> {

    @Mixin
    Session session;

    @Parameters(paramLabel = "RESERVATION")
    UUID id;

    @ArgGroup(exclusive = true, multiplicity = "1")
    End end;

    static class End {

        @Option(names = "--to", description = "The new end, an ISO-8601 instant.")
        Instant to;

        @Option(names = "--by", description = "How much later, an ISO-8601 duration, e.g. PT1H.")
        Duration by;
    }

    @Override
    public Integer call() throws ApiException {
        String tenant = this.session.tenant();
        ReservationsApi reservations = new ReservationsApi(this.session.client());
        ApiResponse<ReservationBody> current = reservations.getReservationWithHttpInfo(tenant, this.id, null);
        List<String> etag = current.getHeaders().get("ETag");
        if (etag == null || etag.isEmpty()) {
            throw new CliFailure(ExitCodes.FAILED, "the server sent no ETag for reservation " + this.id);
        }
        Instant newEnd = this.end.to != null
                ? this.end.to
                : current.getData().getEndsAt().toInstant().plus(this.end.by);
        ReservationBody extended = reservations.extendReservation(
                tenant, this.id, new ExtendRequest().endsAt(newEnd.atOffset(ZoneOffset.UTC)), etag.getFirst());
        if (this.session.json()) {
            this.session.printJson(extended);
        } else {
            this.session.println(extended.getId() + " now ends "
                    + extended.getEndsAt().toInstant() + ", " + BookingOptions.price(extended.getQuote()));
        }
        return ExitCodes.OK;
    }
}
