package dev.allot.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.allot.client.ApiException;
import dev.allot.client.model.ClusterBody;
import dev.allot.client.model.EarliestBody;
import dev.allot.client.model.FitBody;
import dev.allot.client.model.QuoteBody;
import dev.allot.client.model.ReservationRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * What quote and book share: the window and the cluster asked for. Without --start the window is the earliest
 * one in which the pool fits the GPUs for --duration, so a pipeline needs no calendar arithmetic.
 */
class BookingOptions {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--project", required = true)
    String project;

    @Option(names = "--pool", required = true)
    String pool;

    @Option(names = "--gpus", required = true)
    int gpus;

    @Option(names = "--start", description = "ISO-8601 instant (default: the earliest window that fits).")
    Instant start;

    @Option(names = "--end", description = "ISO-8601 instant; or give --duration.")
    Instant end;

    @Option(names = "--duration", description = "ISO-8601 duration, e.g. PT2H.")
    Duration duration;

    @Option(names = "--orchestrator", defaultValue = "KUBERNETES", description = "KUBERNETES or SLURM.")
    ClusterBody.OrchestratorEnum orchestrator;

    @Option(
            names = "--ssh-key",
            paramLabel = "KEY|@FILE",
            description = "An OpenSSH public key, or @file to read one from (repeatable).")
    List<String> sshKeys = new ArrayList<>();

    @Option(names = "--cuda-driver")
    String cudaDriver;

    @Option(names = "--preemptible")
    boolean preemptible;

    /** The request for the window asked for, or the earliest that fits; see {@link #request(Session, String)}. */
    ReservationRequest request(Session session) throws ApiException {
        return request(session, null);
    }

    /**
     * The request, its window fixed once: a retry of it (by the CLI, or a pipeline step run again with the same
     * {@code pinnedBy} idempotency key) sends the same body.
     */
    ReservationRequest request(Session session, String pinnedBy) throws ApiException {
        return request(session, pinnedBy, true);
    }

    /**
     * The request again with the earliest window as it is now, when the server refused the one chosen because it
     * had begun (the server offers a start at least 30 s ahead, but a stalled client can still reach it after
     * that): {@code null} when the window was the caller's own (--start), or the refusal was for anything else.
     */
    ReservationRequest chosenAgain(Session session, String pinnedBy, ApiException refusal) throws ApiException {
        if (this.start != null || refusal.getCode() != 400 || !startsInThePast(refusal.getResponseBody())) {
            return null;
        }
        return request(session, pinnedBy, false);
    }

    private static boolean startsInThePast(String problem) {
        try {
            for (JsonNode error :
                    JSON.readTree(problem == null ? "{}" : problem).path("errors")) {
                if ("startsAt".equals(error.path("field").asText())) {
                    return true;
                }
            }
            return false;
        } catch (IOException unreadable) {
            return false;
        }
    }

    private ReservationRequest request(Session session, String pinnedBy, boolean reusePinned) throws ApiException {
        if ((this.end == null) == (this.duration == null)) {
            throw new CliFailure(ExitCodes.BAD_INPUT, "give either --end or --duration");
        }
        if (this.start != null) {
            return body(this.start, this.end != null ? this.end : this.start.plus(this.duration));
        }
        if (this.duration == null) {
            throw new CliFailure(ExitCodes.BAD_INPUT, "without --start, give --duration");
        }
        PinnedWindows pinned = pinnedBy != null ? new PinnedWindows(session.configFile()) : null;
        if (pinned != null && reusePinned) {
            ReservationRequest first = pinned.find(pinnedBy, body(null, null), this.duration);
            if (first != null) {
                return first;
            }
        }
        EarliestBody earliest = EarliestCommand.find(session, this.pool, this.gpus, this.duration, null);
        if (earliest.getWindows().isEmpty()) {
            throw new CliFailure(
                    ExitCodes.NO_CAPACITY,
                    "no window in pool " + this.pool + " fits " + this.gpus + " GPUs for " + this.duration
                            + " within the tenant's booking horizon");
        }
        FitBody first = earliest.getWindows().getFirst();
        ReservationRequest request =
                body(first.getStartsAt().toInstant(), first.getEndsAt().toInstant());
        if (pinned != null) {
            pinned.keep(pinnedBy, request);
        }
        return request;
    }

    private ReservationRequest body(Instant from, Instant to) {
        ClusterBody cluster = new ClusterBody().orchestrator(this.orchestrator).sshPublicKeys(keys());
        if (this.cudaDriver != null) {
            cluster.cudaDriver(this.cudaDriver);
        }
        return new ReservationRequest()
                .project(this.project)
                .pool(this.pool)
                .gpus(this.gpus)
                .startsAt(from != null ? from.atOffset(ZoneOffset.UTC) : null)
                .endsAt(to != null ? to.atOffset(ZoneOffset.UTC) : null)
                .cluster(cluster)
                .preemptible(this.preemptible ? Boolean.TRUE : null);
    }

    private List<String> keys() {
        List<String> keys = new ArrayList<>();
        for (String key : this.sshKeys) {
            if (key.startsWith("@")) {
                try {
                    keys.add(Files.readString(Path.of(key.substring(1))).strip());
                } catch (IOException ex) {
                    throw new CliFailure(ExitCodes.BAD_INPUT, "cannot read the SSH key " + key.substring(1));
                }
            } else {
                keys.add(key);
            }
        }
        return keys;
    }

    static String price(QuoteBody quote) {
        return quote == null || quote.getTotal() == null
                ? ""
                : quote.getTotal().toPlainString() + " " + quote.getCurrency();
    }
}
