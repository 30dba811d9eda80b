package dev.allot.booking.calendar;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A pool's calendar held in memory: nodes allocated per UTC hour and per UTC day (stripes summed), as read at
 * one snapshot and then moved by every delta committed after it.
 */
final class PoolCounts {

    private final TreeMap<Instant, Integer> hours;

    private final TreeMap<Instant, Integer> days;

    PoolCounts(Map<Instant, Integer> hours, Map<Instant, Integer> days) {
        this.hours = new TreeMap<>(hours);
        this.days = new TreeMap<>(days);
    }

    synchronized void apply(CalendarDelta delta) {
        delta.hours().forEach((hour, n) -> add(hours, hour, n));
        delta.days().forEach((day, n) -> add(days, day, n));
    }

    /** Nodes allocated in each hour of {@code [from, to)}; hours with none are absent. */
    synchronized Map<Instant, Integer> hourly(Instant from, Instant to) {
        return new TreeMap<>(hours.subMap(from, true, to, false));
    }

    /** Nodes allocated in each UTC day of {@code [from, to)}. */
    synchronized Map<Instant, Integer> daily(Instant from, Instant to) {
        return new TreeMap<>(days.subMap(from, true, to, false));
    }

    private static void add(TreeMap<Instant, Integer> counts, Instant bucket, int n) {
        counts.merge(bucket, n, Integer::sum);
        if (Objects.requireNonNull(counts.get(bucket), "merged just now") == 0) {
            counts.remove(bucket);
        }
    }
}
