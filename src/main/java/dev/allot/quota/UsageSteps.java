package dev.allot.quota;

import dev.allot.shared.TimeWindow;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A tenant's usage of one GPU type over a window, as a step function: the GPUs held at the window's start, and
 * each instant inside the window where a usage row starts or ends, with the GPUs held from there on. A booking's
 * split breaks exactly at those instants, also where the total does not change (one booking ending as another of
 * the same size starts), so that a quote is the same whether read from the rows or from the maintained state.
 */
record UsageSteps(int atStart, NavigableMap<Instant, Integer> breaks) {

    /** Where a usage row starts or ends (summed over the rows that do), as {@code quota_usage_edge} keeps it. */
    record Edge(Instant at, int delta) {}

    UsageSteps {
        breaks = Collections.unmodifiableNavigableMap(new TreeMap<>(breaks));
    }

    /** The GPUs held at the instant, which lies in the window the steps were read for. */
    int levelAt(Instant instant) {
        var step = breaks.floorEntry(instant);
        return step == null ? atStart : step.getValue();
    }

    /** The steps of a window from the usage rows overlapping it (what the maintained state must agree with). */
    static UsageSteps of(List<Usage> rows, TimeWindow window) {
        NavigableMap<Instant, Integer> breaks = new TreeMap<>();
        for (Usage row : rows) {
            for (Instant at : List.of(row.during().start(), row.during().end())) {
                if (at.isAfter(window.start()) && at.isBefore(window.end())) {
                    breaks.put(at, held(rows, at));
                }
            }
        }
        return new UsageSteps(held(rows, window.start()), breaks);
    }

    /**
     * The steps of a window from the maintained state: {@code levelAtHour}, the GPUs held at the UTC hour start
     * of the window's start, and the edges after that hour start and before the window's end, in time order.
     */
    static UsageSteps fromEdges(int levelAtHour, List<Edge> edges, TimeWindow window) {
        int level = levelAtHour;
        int atStart = levelAtHour;
        NavigableMap<Instant, Integer> breaks = new TreeMap<>();
        for (Edge edge : edges) {
            level += edge.delta();
            if (edge.at().isAfter(window.start())) {
                breaks.put(edge.at(), level);
            } else {
                atStart = level;
            }
        }
        return new UsageSteps(atStart, breaks);
    }

    /** The hour start whose level {@link #fromEdges} starts from. */
    static Instant hourOf(Instant instant) {
        return instant.truncatedTo(ChronoUnit.HOURS);
    }

    private static int held(List<Usage> rows, Instant at) {
        return rows.stream()
                .filter(u -> u.during().contains(at))
                .mapToInt(Usage::gpus)
                .sum();
    }
}
