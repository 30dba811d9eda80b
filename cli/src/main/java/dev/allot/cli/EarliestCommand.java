package dev.allot.cli;

import dev.allot.client.ApiException;
import dev.allot.client.api.CapacityApi;
import dev.allot.client.model.EarliestBody;
import dev.allot.client.model.FitBody;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "earliest", description = "Find the earliest windows in which a pool has the GPUs for a duration.")
class EarliestCommand implements Callable<Integer> {

    @Mixin
    Session session;

    @Option(names = "--pool", required = true)
    String pool;

    @Option(names = "--gpus", required = true)
    int gpus;

    @Option(names = "--duration", required = true, description = "ISO-8601 duration, e.g. PT2H.")
    Duration duration;

    @Option(names = "--after", description = "ISO-8601 instant (default: now).")
    Instant after;

    @Override
    public Integer call() throws ApiException {
        EarliestBody earliest = find(this.session, this.pool, this.gpus, this.duration, this.after);
        if (this.session.json()) {
            this.session.printJson(earliest);
            return ExitCodes.OK;
        }
        this.session.println(String.format("%-22s %-22s %12s", "STARTS", "ENDS", "QUOTE"));
        for (FitBody fit : earliest.getWindows()) {
            this.session.println(String.format(
                    "%-22s %-22s %12s",
                    fit.getStartsAt().toInstant(), fit.getEndsAt().toInstant(), BookingOptions.price(fit.getQuote())));
        }
        return ExitCodes.OK;
    }

    /** Earliest fits for the caller's tenant, so that its quota's maxAdvance bounds the search. */
    static EarliestBody find(Session session, String pool, int gpus, Duration duration, Instant after)
            throws ApiException {
        return new CapacityApi(session.client())
                .findEarliestWindows(
                        pool,
                        gpus,
                        duration.toString(),
                        after != null ? after.toString() : null,
                        session.tenant(),
                        null);
    }
}
