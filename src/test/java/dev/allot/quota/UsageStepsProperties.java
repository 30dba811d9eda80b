package dev.allot.quota;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.shared.TimeWindow;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The usage a split reads from the maintained state (an hour's level and the edges after it, as the V60 triggers
 * keep them) is the usage the rows say, so a quote does not change with where the usage is read from.
 */
class UsageStepsProperties {

    private static final Instant T0 = Instant.parse("2027-01-29T00:00:00Z");

    @Property
    void theMaintainedStepsEqualTheStepsOfTheRows(
            @ForAll("usages") List<Usage> rows, @ForAll("windows") TimeWindow window) {
        assertThat(maintained(rows, window)).isEqualTo(UsageSteps.of(rows, window));
    }

    @Property
    void aSplitFromTheMaintainedStepsIsTheSplitFromTheRows(
            @ForAll("usages") List<Usage> rows,
            @ForAll("windows") TimeWindow window,
            @ForAll @IntRange(min = 1, max = 48) int gpus) {
        QuotaPolicy policy =
                new QuotaPolicy("H100", 8, 24, true, Duration.ofDays(30), Duration.ofDays(30), null, Priority.TRAINING);
        assertThat(policy.split(maintained(rows, window), window, gpus)).isEqualTo(policy.split(rows, window, gpus));
    }

    /** What QuotaRepository.usage reads: the level at the window's hour start and the edges after it. */
    private static UsageSteps maintained(List<Usage> rows, TimeWindow window) {
        Instant hour = UsageSteps.hourOf(window.start());
        int level = rows.stream()
                .filter(u -> u.during().contains(hour))
                .mapToInt(Usage::gpus)
                .sum();
        Map<Instant, Integer> deltas = new TreeMap<>();
        for (Usage u : rows) {
            deltas.merge(u.during().start(), u.gpus(), Integer::sum);
            deltas.merge(u.during().end(), -u.gpus(), Integer::sum);
        }
        List<UsageSteps.Edge> edges = new ArrayList<>();
        deltas.forEach((at, delta) -> {
            if (at.isAfter(hour) && at.isBefore(window.end())) {
                edges.add(new UsageSteps.Edge(at, delta));
            }
        });
        return UsageSteps.fromEdges(level, edges, window);
    }

    @Provide
    Arbitrary<List<Usage>> usages() {
        Arbitrary<Usage> usage = Combinators.combine(
                        Arbitraries.integers().between(0, 6000),
                        Arbitraries.integers().between(1, 3000),
                        Arbitraries.integers().between(1, 4).map(n -> n * 8),
                        Arbitraries.of(0, 7, 59))
                .as((start, length, gpus, seconds) -> new Usage(window(start, length, seconds), gpus));
        return usage.list().ofMaxSize(10);
    }

    @Provide
    Arbitrary<TimeWindow> windows() {
        return Combinators.combine(
                        Arbitraries.integers().between(0, 6000),
                        Arbitraries.integers().between(1, 6000),
                        Arbitraries.of(0, 30))
                .as(UsageStepsProperties::window);
    }

    private static TimeWindow window(int startMinute, int minutes, int seconds) {
        Instant start =
                T0.plus(Duration.ofMinutes(startMinute)).plusSeconds(seconds).truncatedTo(ChronoUnit.SECONDS);
        return new TimeWindow(start, start.plus(Duration.ofMinutes(minutes)));
    }
}
