package dev.allot.booking.calendar;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CalendarDeltaTests {

    private static final UUID POOL = UUID.fromString("5b0e6c1e-8d1f-4f3e-9b61-2f6f0f2f8a11");

    @Test
    void aDeltaReadsBackFromItsPayloadHourByHourAndDayByDay() {
        Instant hour = Instant.parse("2027-01-31T22:00:00Z");
        CalendarDelta delta = new CalendarDelta(
                POOL,
                7_654_321L,
                42,
                false,
                Map.of(hour, 1, hour.plusSeconds(3600), -2),
                Map.of(Instant.parse("2027-01-31T00:00:00Z"), 1));
        assertThat(CalendarDelta.parse(delta.payload())).isEqualTo(delta);
    }

    @Test
    void aDeltaWithoutDaysAndAResetParse() {
        Instant hour = Instant.parse("2027-01-31T22:00:00Z");
        assertThat(CalendarDelta.parse(POOL + ";12;" + hour.getEpochSecond() / 3600 + ":1;;9")
                        .days())
                .isEmpty();
        assertThat(CalendarDelta.parse(POOL + ";reset").reset()).isTrue();
    }

    @Test
    void aSnapshotSeesWhatCommittedBeforeItAndNothingInProgressOrLater() {
        Snapshot snapshot = Snapshot.parse("100:105:101,103");
        assertThat(snapshot.sees(99)).isTrue();
        assertThat(snapshot.sees(100)).isTrue();
        assertThat(snapshot.sees(101)).isFalse();
        assertThat(snapshot.sees(102)).isTrue();
        assertThat(snapshot.sees(103)).isFalse();
        assertThat(snapshot.sees(105)).isFalse();
        assertThat(Snapshot.parse("100:100:").inProgress()).isEqualTo(Set.of());
    }

    @Test
    void countsThatReturnToZeroLeaveNoBucket() {
        Instant hour = Instant.parse("2027-01-31T22:00:00Z");
        PoolCounts counts = new PoolCounts(Map.of(hour, 2), Map.of());
        counts.apply(new CalendarDelta(POOL, 1, 1, false, Map.of(hour, -2, hour.plusSeconds(3600), 1), Map.of()));
        assertThat(counts.hourly(hour, hour.plusSeconds(7200))).isEqualTo(Map.of(hour.plusSeconds(3600), 1));
    }
}
