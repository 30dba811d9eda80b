package dev.allot.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.quota.pricing.RateCard;
import dev.allot.quota.pricing.RateClass;
import dev.allot.shared.TimeWindow;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** The split of a booking's GPUs into rate classes, and the window rules, for arbitrary usage and policies. */
class QuotaSplitProperties {

    /** Near a month start, so that splits at month boundaries are exercised. */
    private static final Instant T0 = Instant.parse("2027-01-29T00:00:00Z");

    @Property
    void segmentsTileTheWindowAndGiveEveryGpuExactlyOneRateClass(
            @ForAll("policies") QuotaPolicy policy,
            @ForAll("usages") List<Usage> existing,
            @ForAll("windows") TimeWindow window,
            @ForAll @IntRange(min = 1, max = 48) int gpus) {
        List<Segment> segments;
        try {
            segments = policy.split(existing, window, gpus);
        } catch (QuotaExceededException refused) {
            assertThat(refused.limit()).isEqualTo("maxGpus");
            assertThat(policy.burst()).isFalse();
            assertThat(peakUse(existing, window) + gpus).isGreaterThan(policy.maxGpus());
            return;
        }
        assertThat(segments.getFirst().during().start()).isEqualTo(window.start());
        assertThat(segments.getLast().during().end()).isEqualTo(window.end());
        for (int i = 1; i < segments.size(); i++) {
            assertThat(segments.get(i).during().start())
                    .isEqualTo(segments.get(i - 1).during().end());
        }
        assertThat(segments).allSatisfy(s -> assertThat(s.gpus()).isEqualTo(gpus));
    }

    @Property
    void noCapIsPassedAtAnyInstantAndTheCheapestClassesFillFirst(
            @ForAll("policies") QuotaPolicy policy,
            @ForAll("usages") List<Usage> existing,
            @ForAll("windows") TimeWindow window,
            @ForAll @IntRange(min = 1, max = 48) int gpus) {
        List<Segment> segments;
        try {
            segments = policy.split(existing, window, gpus);
        } catch (QuotaExceededException refused) {
            return;
        }
        for (Segment s : segments) {
            int used = existing.stream()
                    .filter(u -> u.during().overlaps(s.during()))
                    .mapToInt(Usage::gpus)
                    .sum();
            assertThat(s.reserved()).isEqualTo(Math.min(gpus, Math.max(0, policy.guaranteedGpus() - used)));
            assertThat(used + s.reserved() + s.borrowed()).isLessThanOrEqualTo(Math.max(policy.maxGpus(), used));
            if (s.onDemand() > 0) {
                assertThat(policy.burst()).isTrue();
                assertThat(used + s.reserved() + s.borrowed()).isGreaterThanOrEqualTo(policy.maxGpus());
            } else if (!policy.burst()) {
                assertThat(used + gpus).isLessThanOrEqualTo(policy.maxGpus());
            }
        }
    }

    @Property
    void noSegmentCrossesAMonthStart(
            @ForAll("policies") QuotaPolicy policy,
            @ForAll("usages") List<Usage> existing,
            @ForAll("windows") TimeWindow window) {
        QuotaPolicy bursting = new QuotaPolicy(
                policy.gpuType(),
                policy.guaranteedGpus(),
                policy.maxGpus(),
                true,
                policy.maxWindow(),
                policy.maxAdvance(),
                null,
                policy.priority());
        for (Segment s : bursting.split(existing, window, 8)) {
            Instant lastMinute = s.during().end().minusSeconds(60);
            assertThat(YearMonth.from(lastMinute.atOffset(ZoneOffset.UTC)))
                    .isEqualTo(YearMonth.from(s.during().start().atOffset(ZoneOffset.UTC)));
        }
    }

    @Property
    void aWindowPassesExactlyWhenItIsShortEnoughAndNearEnough(
            @ForAll("policies") QuotaPolicy policy,
            @ForAll("windows") TimeWindow window,
            @ForAll @IntRange(min = 0, max = 20000) int minutesBefore) {
        Instant now = window.start().minus(Duration.ofMinutes(minutesBefore));
        boolean tooLong = window.duration().compareTo(policy.maxWindow()) > 0;
        boolean tooFar = Duration.between(now, window.start()).compareTo(policy.maxAdvance()) > 0;
        if (!tooLong && !tooFar) {
            policy.requireWindow(window, now);
            return;
        }
        assertThatThrownBy(() -> policy.requireWindow(window, now))
                .isInstanceOfSatisfying(
                        QuotaExceededException.class,
                        refused -> assertThat(refused.limit()).isEqualTo(tooLong ? "maxWindow" : "maxAdvance"));
    }

    @Property
    void theQuoteTotalIsTheSumOfItsLinesAndEachLineIsHoursTimesPrice(
            @ForAll("usages") List<Usage> existing,
            @ForAll("windows") TimeWindow window,
            @ForAll @IntRange(min = 1, max = 48) int gpus) {
        QuotaPolicy policy =
                new QuotaPolicy("H100", 8, 16, true, Duration.ofDays(30), Duration.ofDays(30), null, Priority.TRAINING);
        RateCard card = new RateCard(
                "H100",
                LocalDate.EPOCH,
                "USD",
                Map.of(
                        RateClass.RESERVED,
                        new BigDecimal("2.50"),
                        RateClass.BORROWED,
                        new BigDecimal("1.2345"),
                        RateClass.ON_DEMAND,
                        new BigDecimal("4.00")));
        List<PricedSegment> priced = PricedSegment.price(policy.split(existing, window, gpus), card);
        QuotaDecision decision = QuotaDecision.of("H100", card, priced, List.of());
        assertThat(decision.total())
                .isEqualByComparingTo(decision.lines().stream()
                        .map(QuotaDecision.Line::amount)
                        .reduce(BigDecimal.ZERO, BigDecimal::add));
        long gpuMinutes = decision.lines().stream()
                .mapToLong(l -> l.gpuHours()
                        .multiply(BigDecimal.valueOf(60))
                        .setScale(0, RoundingMode.HALF_EVEN)
                        .longValueExact())
                .sum();
        assertThat(gpuMinutes).isEqualTo(gpus * window.minutes());
        BigDecimal cheapest = BigDecimal.valueOf(gpus * window.minutes())
                .multiply(new BigDecimal("1.2345"))
                .divide(BigDecimal.valueOf(60), 4, RoundingMode.DOWN);
        assertThat(decision.total()).isGreaterThanOrEqualTo(cheapest.subtract(new BigDecimal("0.01")));
    }

    @Provide
    Arbitrary<QuotaPolicy> policies() {
        return Combinators.combine(
                        Arbitraries.integers().between(0, 32),
                        Arbitraries.integers().between(0, 32),
                        Arbitraries.of(true, false),
                        Arbitraries.integers().between(60, 5000),
                        Arbitraries.integers().between(60, 20000))
                .as((guaranteed, extra, burst, window, advance) -> new QuotaPolicy(
                        "H100",
                        guaranteed,
                        guaranteed + extra,
                        burst,
                        Duration.ofMinutes(window),
                        Duration.ofMinutes(advance),
                        null,
                        Priority.TRAINING));
    }

    @Provide
    Arbitrary<List<Usage>> usages() {
        Arbitrary<Usage> usage = Combinators.combine(
                        Arbitraries.integers().between(0, 6000),
                        Arbitraries.integers().between(1, 3000),
                        Arbitraries.integers().between(1, 4).map(n -> n * 8))
                .as((start, length, gpus) -> new Usage(window(start, length), gpus));
        return usage.list().ofMaxSize(8);
    }

    @Provide
    Arbitrary<TimeWindow> windows() {
        return Combinators.combine(
                        Arbitraries.integers().between(0, 6000),
                        Arbitraries.integers().between(1, 6000))
                .as(QuotaSplitProperties::window);
    }

    private static TimeWindow window(int startMinute, int minutes) {
        Instant start = T0.plus(Duration.ofMinutes(startMinute));
        return new TimeWindow(start, start.plus(Duration.ofMinutes(minutes)));
    }

    private static int peakUse(List<Usage> existing, TimeWindow window) {
        int peak = 0;
        for (long m = 0; m < window.minutes(); m++) {
            Instant at = window.start().plus(Duration.ofMinutes(m));
            peak = Math.max(
                    peak,
                    existing.stream()
                            .filter(u -> u.during().contains(at))
                            .mapToInt(Usage::gpus)
                            .sum());
        }
        return peak;
    }
}
