package dev.allot.booking.allocation;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SortedMap;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * The earliest starts where {@code count} nodes are free for {@code duration}, found by one sweep over the pool's
 * free gaps in order of their start: each gap is looked at once, instead of counting every gap of the pool for
 * each candidate start. Only {@code after} and a gap's start can be the earliest such start, and only where a gap
 * starting there is long enough (the same candidates as before); at a candidate {@code t}, the gaps holding
 * {@code [t, t + duration)} are those started by then whose end is not before {@code t + duration}, and a gap
 * ending too early for {@code t} ends too early for every later candidate, so it is dropped for good.
 */
public final class EarliestFit {

    /** A free gap of an available node: {@code from} is null when it has no start, {@code to} when it never ends. */
    record Gap(@Nullable Instant from, @Nullable Instant to) {}

    private final int count;

    private final Duration duration;

    private final int limit;

    private final List<Instant> starts = new ArrayList<>();

    /** Ends of the gaps started so far that may still hold a candidate's window (never-ending gaps as MAX). */
    private final PriorityQueue<Instant> open = new PriorityQueue<>();

    private @Nullable Instant pending;

    private boolean pendingIsCandidate;

    private boolean finished;

    /**
     * The earliest start from {@code from} on that the calendar does not rule out, so that the sweep can start there
     * instead of reading every gap on the way. A window of {@code duration} starting at {@code t} needs {@code count}
     * nodes free through every whole hour inside it, and no more can be free in an hour than the pool's nodes less
     * those the calendar counts as allocated in it ({@code allocated}: nodes per hour start, hours without any
     * absent; spares and unhealthy nodes count as free, so no start that fits is ruled out). A start is ruled out
     * when such an hour lies wholly inside its window. The first start not ruled out is {@code from} or the minute
     * after an hour start, and the sweep from there finds exactly the starts it finds from {@code from}: a window
     * that fits also fits from the latest start of the gaps holding it, which is a gap start or {@code from}.
     * {@code allocated} answers the calendar of {@code [hour, end)}; it is asked {@code chunk} by {@code chunk}
     * up to {@code until}, beyond which nothing is ruled out.
     */
    public static Instant firstNotRuledOut(
            BiFunction<Instant, Instant, SortedMap<Instant, Integer>> allocated,
            Duration chunk,
            Instant until,
            int poolNodes,
            int count,
            Duration duration,
            Instant from) {
        Instant start = from;
        // the calendar a chunk of hours at a time (up to until): the window from start usually ends in the first
        for (Instant hour = from.truncatedTo(ChronoUnit.HOURS); hour.isBefore(until); hour = hour.plus(chunk)) {
            Instant chunkEnd = hour.plus(chunk);
            for (Map.Entry<Instant, Integer> counted :
                    allocated.apply(hour, chunkEnd).entrySet()) {
                Instant at = counted.getKey();
                if (at.plus(Hours.HOUR).isAfter(start.plus(duration))) {
                    return start; // this hour and every later one end after the window: none lies inside it
                }
                if (!at.isBefore(start) && poolNodes - counted.getValue() < count) {
                    start = at.plus(Duration.ofMinutes(1));
                }
            }
            if (!start.plus(duration).isAfter(chunkEnd)) {
                return start; // every hour inside the window was read, and none rules it out
            }
        }
        return start;
    }

    EarliestFit(int count, Duration duration, int limit) {
        this.count = count;
        this.duration = duration;
        this.limit = limit;
    }

    /**
     * The gaps holding the window from {@code after} (a gap holding {@code after} but ending sooner holds no window
     * from there on, so it may be left out), which start the sweep at {@code after} itself; then {@link #next} with
     * the gaps starting after it, in order of their start.
     */
    void holding(Instant after, List<Gap> gaps) {
        for (Gap gap : gaps) {
            add(after, gap);
        }
        close();
    }

    /** The next gap in order of its start (strictly after {@code after}). */
    void next(Instant from, @Nullable Instant to) {
        if (pending != null && !from.equals(pending)) {
            close();
        }
        add(from, new Gap(from, to));
    }

    /** No more gaps: decides the last candidate. */
    List<Instant> starts() {
        finish();
        return List.copyOf(starts);
    }

    /** No more gaps: decides the last candidate; {@link #found} is then final. */
    void finish() {
        close();
        finished = true;
    }

    boolean finished() {
        return finished;
    }

    /** How many starts are decided so far: a start, once decided, never changes (later gaps start after it). */
    int found() {
        return starts.size();
    }

    Instant start(int index) {
        return starts.get(index);
    }

    boolean done() {
        return starts.size() >= limit;
    }

    private void add(Instant at, Gap gap) {
        pending = at;
        Instant end = gap.to() == null ? Instant.MAX : gap.to();
        open.add(end);
        if (!end.isBefore(at.plus(duration))) {
            pendingIsCandidate = true;
        }
    }

    private void close() {
        if (pending == null) {
            return;
        }
        if (pendingIsCandidate && !done()) {
            Instant windowEnd = pending.plus(duration);
            while (!open.isEmpty() && open.peek().isBefore(windowEnd)) {
                open.poll();
            }
            if (open.size() >= count) {
                starts.add(pending);
            }
        }
        pending = null;
        pendingIsCandidate = false;
    }
}
