package dev.allot.booking.calendar;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A PostgreSQL snapshot ({@code pg_current_snapshot()}, text {@code xmin:xmax:xip,...}): whether the changes of a
 * transaction were visible to a read made in it. A transaction below {@code xmin} had committed (or aborted, and
 * then announced nothing); one from {@code xmax} on had not started; one in between is visible unless it was
 * still in progress.
 */
record Snapshot(long xmin, long xmax, Set<Long> inProgress) {

    Snapshot {
        inProgress = Set.copyOf(inProgress);
    }

    static Snapshot parse(String text) {
        String[] parts = text.split(":", -1);
        Set<Long> running = parts[2].isEmpty()
                ? Set.of()
                : Arrays.stream(parts[2].split(",")).map(Long::parseLong).collect(Collectors.toSet());
        return new Snapshot(Long.parseLong(parts[0]), Long.parseLong(parts[1]), running);
    }

    boolean sees(long transaction) {
        return transaction < xmin || (transaction < xmax && !inProgress.contains(transaction));
    }
}
