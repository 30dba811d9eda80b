package dev.allot.booking;

import dev.allot.booking.spec.ClusterSpec;
import dev.allot.inventory.Pool;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.InvalidInputException.FieldError;
import dev.allot.shared.TimeWindow;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.Caller.Kind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What a tenant asks to book (or to quote): whole nodes of a pool for a window. */
public record BookingRequest(
        String project,
        String pool,
        int gpus,
        TimeWindow window,
        ClusterSpec cluster,
        boolean preemptible,
        Map<String, String> labels) {

    public BookingRequest {
        labels = Map.copyOf(labels);
    }

    /** A request with no labels. */
    public BookingRequest(
            String project, String pool, int gpus, TimeWindow window, ClusterSpec cluster, boolean preemptible) {
        this(project, pool, gpus, window, cluster, preemptible, Map.of());
    }

    /** The request as booked by {@code caller}: the booking's SSH keys open the booking user's login only. */
    BookingRequest bookedBy(Caller caller) {
        String user = caller.kind() == Kind.USER ? caller.subject() : null;
        return new BookingRequest(project, pool, gpus, window, cluster.keysFor(user), preemptible, labels);
    }

    /** The same request for the same length of time from {@code start}. */
    BookingRequest startingAt(Instant start) {
        return new BookingRequest(
                project,
                pool,
                gpus,
                new TimeWindow(start, start.plus(window.duration())),
                cluster,
                preemptible,
                labels);
    }

    /** Refuses, naming each field, a request the pool or the clock makes impossible. */
    void requireFits(Pool target, int poolNodes, Instant now) {
        List<FieldError> errors = new ArrayList<>();
        if (gpus <= 0) {
            errors.add(new FieldError("gpus", "must be positive"));
        } else if (gpus % target.gpusPerNode() != 0) {
            errors.add(new FieldError(
                    "gpus", "must be a multiple of the pool's " + target.gpusPerNode() + " GPUs per node"));
        } else if (gpus > poolNodes * target.gpusPerNode()) {
            errors.add(new FieldError("gpus", "is more than the pool's " + poolNodes * target.gpusPerNode() + " GPUs"));
        }
        if (!window.start().isAfter(now)) {
            errors.add(new FieldError("startsAt", "must be in the future"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
    }

    int nodes(Pool target) {
        return gpus / target.gpusPerNode();
    }
}
