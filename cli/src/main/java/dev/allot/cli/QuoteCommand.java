package dev.allot.cli;

import dev.allot.client.ApiException;
import dev.allot.client.api.ReservationsApi;
import dev.allot.client.model.QuoteAnswer;
import dev.allot.client.model.ReservationRequest;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Prices a booking without making it; exits 3 or 4 when the booking would be refused, like book would. */
@Command(name = "quote", description = "Price a booking and say whether it would fit, without booking.")
class QuoteCommand implements Callable<Integer> {

    @Mixin
    Session session;

    @Mixin
    BookingOptions booking;

    @Override
    public Integer call() throws ApiException {
        ReservationRequest request = this.booking.request(this.session);
        QuoteAnswer answer = new ReservationsApi(this.session.client()).createQuote(this.session.tenant(), request);
        if (this.session.json()) {
            this.session.printJson(answer);
        } else {
            this.session.println(request.getStartsAt() + " .. " + request.getEndsAt() + "  " + request.getGpus()
                    + " GPUs in " + request.getPool() + ": "
                    + (Boolean.TRUE.equals(answer.getFits()) ? "fits" : "does not fit") + ", "
                    + BookingOptions.price(answer.getQuote()));
        }
        if (Boolean.TRUE.equals(answer.getFits())) {
            return ExitCodes.OK;
        }
        boolean noRoom = answer.getCapacity() != null
                && Boolean.FALSE.equals(answer.getCapacity().getFits());
        this.session
                .err()
                .println("allot: would be refused: "
                        + (answer.getRefusal() != null && !answer.getRefusal().isEmpty()
                                ? answer.getRefusal()
                                : "no capacity"));
        this.session.err().flush();
        return noRoom ? ExitCodes.NO_CAPACITY : ExitCodes.QUOTA;
    }
}
