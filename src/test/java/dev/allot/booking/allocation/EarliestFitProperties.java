package dev.allot.booking.allocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * The sweep finds exactly the starts the former query found: every candidate counted against every gap; and it finds
 * the same from where the calendar stops ruling starts out.
 */
class EarliestFitProperties {

    private static final Instant T0 = Instant.parse("2027-03-01T00:00:00Z");

    @Property
    void theSweepAnswersTheStartsACountAtEveryCandidateAnswers(
            @ForAll("fleets") List<List<Integer>> nodes,
            @ForAll @IntRange(min = 1, max = 5) int count,
            @ForAll @IntRange(min = 1, max = 40) int hours,
            @ForAll @IntRange(min = 0, max = 60) int afterHour,
            @ForAll @IntRange(min = 1, max = 6) int limit) {
        List<EarliestFit.Gap> gaps = gaps(nodes);
        Instant after = T0.plus(Duration.ofHours(afterHour)).plusSeconds(60 * 17);
        Duration duration = Duration.ofHours(hours);

        EarliestFit fit = new EarliestFit(count, duration, limit);
        fit.holding(after, gaps.stream().filter(g -> holds(g, after, duration)).toList());
        gaps.stream()
                .filter(g -> g.from() != null && g.from().isAfter(after))
                .sorted(Comparator.comparing(EarliestFit.Gap::from))
                .forEach(g -> fit.next(g.from(), g.to()));

        assertThat(fit.starts()).isEqualTo(bruteForce(gaps, count, duration, after, limit));
    }

    /**
     * Starts are handed out as they are decided, while the gaps are still read a stretch at a time: a start once
     * decided stays, and after the last gap the starts are those of the whole sweep.
     */
    @Property
    void startsDecidedAlongTheWayAreTheSweepsStarts(
            @ForAll("fleets") List<List<Integer>> nodes,
            @ForAll @IntRange(min = 1, max = 5) int count,
            @ForAll @IntRange(min = 1, max = 40) int hours,
            @ForAll @IntRange(min = 1, max = 7) int chunk) {
        List<EarliestFit.Gap> gaps = gaps(nodes);
        Instant after = T0.plus(Duration.ofMinutes(17));
        Duration duration = Duration.ofHours(hours);
        EarliestFit fit = new EarliestFit(count, duration, Integer.MAX_VALUE);
        fit.holding(after, gaps.stream().filter(g -> holds(g, after, duration)).toList());
        List<EarliestFit.Gap> later = gaps.stream()
                .filter(g -> g.from() != null && g.from().isAfter(after))
                .sorted(Comparator.comparing(EarliestFit.Gap::from))
                .toList();
        List<Instant> seen = new ArrayList<>();
        for (int i = 0; i < later.size(); i++) {
            fit.next(later.get(i).from(), later.get(i).to());
            if (i % chunk == 0) {
                for (int k = 0; k < fit.found(); k++) {
                    if (k < seen.size()) {
                        assertThat(fit.start(k)).isEqualTo(seen.get(k));
                    } else {
                        seen.add(fit.start(k));
                    }
                }
            }
        }
        fit.finish();
        List<Instant> all = new ArrayList<>();
        for (int k = 0; k < fit.found(); k++) {
            all.add(fit.start(k));
        }
        assertThat(all.subList(0, seen.size())).isEqualTo(seen);
        assertThat(all).isEqualTo(bruteForce(gaps, count, duration, after, Integer.MAX_VALUE));
    }

    /**
     * Starting the sweep where the calendar's hours stop ruling starts out changes nothing: the starts found from
     * there are the starts found from {@code after}. Allocations here begin and end on 20-minute marks, so hours are
     * partly allocated, and the calendar counts a node in every hour its gaps do not hold whole.
     */
    @Property
    void skippingWhatTheCalendarRulesOutFindsTheSameStarts(
            @ForAll("finerFleets") List<List<Integer>> nodes,
            @ForAll @IntRange(min = 1, max = 5) int count,
            @ForAll @IntRange(min = 1, max = 40) int thirds,
            @ForAll @IntRange(min = 0, max = 180) int afterThird,
            @ForAll @IntRange(min = 1, max = 6) int limit,
            @ForAll @IntRange(min = 1, max = 30) int chunkHours) {
        List<EarliestFit.Gap> gaps = gaps(nodes, Duration.ofMinutes(20));
        Instant after = T0.plus(Duration.ofMinutes(20L * afterThird + 7));
        Duration duration = Duration.ofMinutes(20L * thirds);
        SortedMap<Instant, Integer> calendar = allocatedPerHour(gaps, nodes.size(), after);

        Instant from = EarliestFit.firstNotRuledOut(
                (hour, end) -> calendar.subMap(hour, end),
                Duration.ofHours(chunkHours),
                after.plus(Duration.ofDays(40)),
                nodes.size(),
                count,
                duration,
                after);

        assertThat(from).isAfterOrEqualTo(after);
        List<Instant> expected = bruteForce(gaps, count, duration, after, limit);
        assertThat(bruteForce(gaps, count, duration, from, limit)).isEqualTo(expected);
        Statistics.label("skipped ahead").collect(from.isAfter(after));
    }

    /** What the calendar keeps: per hour start, the nodes whose gaps do not hold the whole hour (none: absent). */
    private static SortedMap<Instant, Integer> allocatedPerHour(List<EarliestFit.Gap> gaps, int nodes, Instant after) {
        SortedMap<Instant, Integer> allocated = new TreeMap<>();
        Instant hour = after.truncatedTo(ChronoUnit.HOURS);
        for (int i = 0; i < 24 * 40; i++, hour = hour.plus(Duration.ofHours(1))) {
            Instant h = hour;
            long whole = gaps.stream()
                    .filter(g -> (g.from() == null || !g.from().isAfter(h))
                            && (g.to() == null || !g.to().isBefore(h.plus(Duration.ofHours(1)))))
                    .count();
            if (whole < nodes) {
                allocated.put(h, nodes - (int) whole);
            }
        }
        return allocated;
    }

    private static List<Instant> bruteForce(
            List<EarliestFit.Gap> gaps, int count, Duration duration, Instant after, int limit) {
        TreeSet<Instant> candidates = new TreeSet<>();
        for (EarliestFit.Gap g : gaps) {
            Instant t = g.from() == null || g.from().isBefore(after) ? after : g.from();
            if (g.to() == null || !g.to().isBefore(t.plus(duration))) {
                candidates.add(t);
            }
        }
        List<Instant> starts = new ArrayList<>();
        for (Instant t : candidates) {
            long holding = gaps.stream()
                    .filter(g -> (g.from() == null || !g.from().isAfter(t))
                            && (g.to() == null || !g.to().isBefore(t.plus(duration))))
                    .count();
            if (holding >= count && starts.size() < limit) {
                starts.add(t);
            }
        }
        return starts;
    }

    /** As the database is asked: the gaps holding the whole window from {@code at}. */
    private static boolean holds(EarliestFit.Gap g, Instant at, Duration duration) {
        return (g.from() == null || !g.from().isAfter(at)) && (g.to() == null || !g.to().isBefore(at.plus(duration)));
    }

    /**
     * Each node's allocations as alternating busy and free lengths in hours; its gaps are the complement, the first
     * without a start and the last without an end.
     */
    private static List<EarliestFit.Gap> gaps(List<List<Integer>> nodes) {
        return gaps(nodes, Duration.ofHours(1));
    }

    private static List<EarliestFit.Gap> gaps(List<List<Integer>> nodes, Duration unit) {
        List<EarliestFit.Gap> gaps = new ArrayList<>();
        for (List<Integer> lengths : nodes) {
            Instant free = null;
            Instant t = T0;
            for (int i = 0; i + 1 < lengths.size(); i += 2) {
                t = t.plus(unit.multipliedBy(lengths.get(i)));
                gaps.add(new EarliestFit.Gap(free, t));
                free = t.plus(unit.multipliedBy(lengths.get(i + 1)));
                t = free;
            }
            gaps.add(new EarliestFit.Gap(free, null));
        }
        return gaps;
    }

    @Provide
    Arbitrary<List<List<Integer>>> finerFleets() {
        return Arbitraries.integers()
                .between(1, 90)
                .list()
                .ofMaxSize(12)
                .list()
                .ofMinSize(1)
                .ofMaxSize(8);
    }

    @Provide
    Arbitrary<List<List<Integer>>> fleets() {
        return Arbitraries.integers()
                .between(1, 30)
                .list()
                .ofMaxSize(10)
                .list()
                .ofMinSize(1)
                .ofMaxSize(8);
    }
}
