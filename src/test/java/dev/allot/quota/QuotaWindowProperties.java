package dev.allot.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.quota.policies.QuotaWindow;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.TimeWindow;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** Time-window quotas: {@code maxGpus} overridden in some hours of the week, read in the policy's zone. */
class QuotaWindowProperties {

    /** A Friday, a few weeks before a daylight-saving change in Europe and America. */
    private static final Instant T0 = Instant.parse("2027-03-05T00:00:00Z");

    private static final List<ZoneId> ZONES = List.of(
            ZoneId.of("UTC"), ZoneId.of("Europe/Berlin"), ZoneId.of("America/Los_Angeles"), ZoneId.of("Asia/Kolkata"));

    @Property
    void noStretchPassesTheCeilingInForceAtAnyMinuteOfIt(
            @ForAll("policies") QuotaPolicy policy,
            @ForAll @IntRange(min = 0, max = 20000) int startMinute,
            @ForAll @IntRange(min = 1, max = 8000) int minutes,
            @ForAll @IntRange(min = 1, max = 48) int gpus,
            @ForAll @IntRange(min = 0, max = 40) int used) {
        TimeWindow window = new TimeWindow(
                T0.plus(Duration.ofMinutes(startMinute)), T0.plus(Duration.ofMinutes(startMinute + minutes)));
        List<Usage> existing = used == 0 ? List.of() : List.of(new Usage(window, used));
        List<Segment> segments;
        try {
            segments = policy.split(existing, window, gpus);
        } catch (QuotaExceededException refused) {
            assertThat(policy.burst()).isFalse();
            Instant at = (Instant) refused.properties().get("at");
            assertThat(used + gpus).isGreaterThan(policy.maxGpusAt(at));
            return;
        }
        for (Segment s : segments) {
            // the ceiling is the same all through the stretch: every window edge cuts it
            int max = policy.maxGpusAt(s.during().start());
            for (Instant at = s.during().start(); at.isBefore(s.during().end()); at = at.plus(Duration.ofMinutes(15))) {
                assertThat(policy.maxGpusAt(at))
                        .as("ceiling at %s in %s", at, s.during())
                        .isEqualTo(max);
            }
            assertThat(policy.maxGpusAt(s.during().end().minusSeconds(60))).isEqualTo(max);
            assertThat(used + s.reserved() + s.borrowed()).isLessThanOrEqualTo(Math.max(max, used));
            if (!policy.burst()) {
                assertThat(s.onDemand()).isZero();
                assertThat(used + gpus).isLessThanOrEqualTo(max);
            }
        }
    }

    @Property
    void theStoredFormReadsBackAsTheSameWindow(@ForAll("windowRules") QuotaWindow window) {
        assertThat(QuotaWindow.ofText(window.stored())).isEqualTo(window);
    }

    @Example
    void aWindowEndingInTheHourTheClocksSkipEndsWhenTheyJump() {
        // Saturday 03:00 to Sunday 02:30 in Los Angeles; on 2027-03-14 the clocks jump from 02:00 to 03:00
        QuotaPolicy policy = new QuotaPolicy(
                "H100",
                0,
                0,
                true,
                Duration.ofDays(30),
                Duration.ofDays(30),
                null,
                Priority.TRAINING,
                0,
                ZoneId.of("America/Los_Angeles"),
                List.of(QuotaWindow.of("w", List.of("SAT"), "03:00", "02:30", 8)));
        noStretchPassesTheCeilingInForceAtAnyMinuteOfIt(policy, 5561, 8000, 1, 0);
        assertThat(policy.maxGpusAt(Instant.parse("2027-03-14T09:59:00Z"))).isEqualTo(8);
        assertThat(policy.maxGpusAt(Instant.parse("2027-03-14T10:00:00Z"))).isZero();
    }

    @Example
    void weekendsInBerlinAllow64WhereTheWeekAllows16() {
        QuotaPolicy policy = new QuotaPolicy(
                "H100",
                8,
                16,
                false,
                Duration.ofDays(30),
                Duration.ofDays(30),
                null,
                Priority.TRAINING,
                8,
                ZoneId.of("Europe/Berlin"),
                List.of(QuotaWindow.of("w", List.of("SAT", "SUN"), "00:00", "24:00", 64)));
        // Saturday 00:00 in Berlin is Friday 23:00 UTC in winter
        assertThat(policy.maxGpusAt(Instant.parse("2027-03-05T22:59:00Z"))).isEqualTo(16);
        assertThat(policy.maxGpusAt(Instant.parse("2027-03-05T23:00:00Z"))).isEqualTo(64);
        assertThat(policy.maxGpusAt(Instant.parse("2027-03-07T22:59:00Z"))).isEqualTo(64);
        assertThat(policy.maxGpusAt(Instant.parse("2027-03-07T23:00:00Z"))).isEqualTo(16);

        TimeWindow weekend =
                new TimeWindow(Instant.parse("2027-03-06T08:00:00Z"), Instant.parse("2027-03-06T20:00:00Z"));
        assertThat(policy.split(List.of(), weekend, 64))
                .singleElement()
                .satisfies(s -> assertThat(s.borrowed()).isEqualTo(56));
        TimeWindow intoMonday =
                new TimeWindow(Instant.parse("2027-03-07T20:00:00Z"), Instant.parse("2027-03-08T02:00:00Z"));
        assertThatThrownBy(() -> policy.split(List.of(), intoMonday, 64))
                .isInstanceOfSatisfying(QuotaExceededException.class, refused -> {
                    assertThat(refused.properties())
                            .containsEntry("allowed", 16)
                            .containsEntry("at", Instant.parse("2027-03-07T23:00:00Z"));
                    assertThat(refused.getMessage()).contains("48 more than the 16 its quota allows then");
                });
    }

    @Example
    void aWindowPastMidnightHoldsTheNextMorningOfEachDayItStartsOn() {
        QuotaWindow nights = QuotaWindow.ofText("mon-fri 20:00-06:00 48");
        assertThat(nights.days())
                .containsExactlyInAnyOrder(
                        DayOfWeek.MONDAY, DayOfWeek.TUESDAY, DayOfWeek.WEDNESDAY, DayOfWeek.THURSDAY, DayOfWeek.FRIDAY);
        ZoneId utc = ZoneId.of("UTC");
        assertThat(nights.covers(Instant.parse("2027-03-05T21:00:00Z"), utc)).isTrue(); // Friday night
        assertThat(nights.covers(Instant.parse("2027-03-06T05:59:00Z"), utc)).isTrue(); // its Saturday morning
        assertThat(nights.covers(Instant.parse("2027-03-06T21:00:00Z"), utc)).isFalse(); // Saturday night
        assertThat(nights.covers(Instant.parse("2027-03-08T05:00:00Z"), utc)).isFalse(); // Monday morning
    }

    @Example
    void badWindowsNameTheirField() {
        assertThatThrownBy(() -> QuotaWindow.of("windows[2]", List.of("SAT", "HOLIDAY"), "25:00", "10:00", -1))
                .isInstanceOfSatisfying(
                        InvalidInputException.class,
                        bad -> assertThat(bad.errors())
                                .extracting(InvalidInputException.FieldError::field)
                                .containsExactly("windows[2].days", "windows[2].from", "windows[2].maxGpus"));
        assertThatThrownBy(() -> QuotaWindow.of("w", List.of("SAT"), "10:00", "10:00", 8))
                .isInstanceOfSatisfying(
                        InvalidInputException.class,
                        bad -> assertThat(bad.errors().getFirst().field()).isEqualTo("w.to"));
        assertThatThrownBy(() -> new QuotaPolicy(
                        "H100",
                        8,
                        16,
                        false,
                        Duration.ofDays(1),
                        Duration.ofDays(1),
                        null,
                        Priority.TRAINING,
                        9,
                        ZoneId.of("UTC"),
                        List.of()))
                .isInstanceOfSatisfying(
                        InvalidInputException.class,
                        bad -> assertThat(bad.errors().getFirst().field()).isEqualTo("lendableGpus"));
        assertThatThrownBy(() -> new QuotaPolicy(
                        "H100",
                        8,
                        16,
                        false,
                        Duration.ofDays(1),
                        Duration.ofDays(1),
                        null,
                        Priority.TRAINING,
                        8,
                        ZoneId.of("UTC"),
                        List.of(QuotaWindow.ofText("SAT 00:00-24:00 4"))))
                .isInstanceOfSatisfying(
                        InvalidInputException.class,
                        bad -> assertThat(bad.errors().getFirst().field()).isEqualTo("windows[0].maxGpus"));
    }

    @Provide
    Arbitrary<QuotaWindow> windowRules() {
        return Combinators.combine(
                        Arbitraries.of(DayOfWeek.class).set().ofMinSize(1),
                        Arbitraries.integers().between(0, 47),
                        Arbitraries.integers().between(1, 48),
                        Arbitraries.integers().between(8, 96))
                .as((days, from, to, max) ->
                        new QuotaWindow(Set.copyOf(days), from * 30, from.equals(to) ? 1440 : to * 30, max));
    }

    @Provide
    Arbitrary<QuotaPolicy> policies() {
        return Combinators.combine(
                        Arbitraries.integers().between(0, 8),
                        Arbitraries.integers().between(0, 24),
                        Arbitraries.of(true, false),
                        Arbitraries.of(ZONES),
                        windowRules().list().ofMaxSize(3))
                .as((guaranteed, extra, burst, zone, windows) -> new QuotaPolicy(
                        "H100",
                        guaranteed,
                        guaranteed + extra,
                        burst,
                        Duration.ofDays(30),
                        Duration.ofDays(30),
                        null,
                        Priority.TRAINING,
                        guaranteed,
                        zone,
                        windows));
    }
}
