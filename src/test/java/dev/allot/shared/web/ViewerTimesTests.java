package dev.allot.shared.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ViewerTimesTests {

    @Test
    void aViewersDaysStartAtTheirMidnightInAHalfHourZone() {
        // 20:00 UTC is already 01:30 the next day in India: today there began at 18:30 UTC
        assertThat(dayStarts("Asia/Kolkata", "2027-01-05T20:00:00Z", 2))
                .containsExactly(instants("2027-01-05T18:30:00Z", "2027-01-06T18:30:00Z", "2027-01-07T18:30:00Z"));
        assertThat(dayStarts("Asia/Kathmandu", "2027-01-05T17:00:00Z", 1))
                .containsExactly(instants("2027-01-04T18:15:00Z", "2027-01-05T18:15:00Z"));
    }

    @Test
    void aDayTheClocksChangeIsTwentyThreeHoursLong() {
        // New York moves to summer time on 14 March 2027: that day has 23 hours
        assertThat(dayStarts("America/New_York", "2027-03-13T12:00:00Z", 2))
                .containsExactly(instants("2027-03-13T05:00:00Z", "2027-03-14T05:00:00Z", "2027-03-15T04:00:00Z"));
    }

    @Test
    void withoutAZoneTheDaysAreUtcs() {
        assertThat(dayStarts("UTC", "2027-01-05T23:59:59Z", 1))
                .containsExactly(instants("2027-01-05T00:00:00Z", "2027-01-06T00:00:00Z"));
    }

    @Test
    void timesAreShownInTheViewersZoneWithUtcForTheHoverText() {
        ViewerTimes india = new ViewerTimes(ZoneId.of("Asia/Kolkata"));
        Instant at = Instant.parse("2027-01-05T20:15:07Z");
        assertThat(india.local(at)).isEqualTo("2027-01-06 01:45");
        assertThat(india.localSeconds(at)).isEqualTo("2027-01-06 01:45:07");
        assertThat(india.localDate(at)).isEqualTo("2027-01-06");
        assertThat(india.utcSeconds(at)).isEqualTo("2027-01-05 20:15:07 UTC");
    }

    private static List<Instant> dayStarts(String zone, String now, int days) {
        return new ViewerTimes(ViewerTimes.zone(zone)).dayStarts(Instant.parse(now), days);
    }

    private static Instant[] instants(String... written) {
        return Arrays.stream(written).map(Instant::parse).toArray(Instant[]::new);
    }
}
