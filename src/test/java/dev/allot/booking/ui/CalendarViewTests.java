package dev.allot.booking.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class CalendarViewTests {

    private static final LocalDate TODAY = LocalDate.parse("2027-01-05");

    @Test
    void daysStartAtTheViewersMidnight() {
        ZoneId berlin = ZoneId.of("Europe/Berlin");
        CalendarView days = CalendarView.of(null, 30, "day", TODAY);
        assertThat(days.start(berlin)).isEqualTo(Instant.parse("2027-01-04T23:00:00Z"));
        assertThat(days.end(berlin)).isEqualTo(Instant.parse("2027-02-03T23:00:00Z"));
        assertThat(days.bounds(berlin)).hasSize(31);
        assertThat(CalendarView.of(null, 1, "hour", TODAY).bounds(berlin)).hasSize(25);
    }

    @Test
    void aDayWhenTheClocksGoBackHasTwentyFiveHours() {
        ZoneId losAngeles = ZoneId.of("America/Los_Angeles");
        CalendarView view = CalendarView.of("2026-11-01", 1, "hour", LocalDate.parse("2026-10-30"));
        assertThat(view.bounds(losAngeles)).hasSize(26).first().isEqualTo(Instant.parse("2026-11-01T07:00:00Z"));
        assertThat(CalendarView.of("2026-10-31", 2, "day", LocalDate.parse("2026-10-30"))
                        .bounds(losAngeles))
                .containsExactly(
                        Instant.parse("2026-10-31T07:00:00Z"),
                        Instant.parse("2026-11-01T07:00:00Z"),
                        Instant.parse("2026-11-02T08:00:00Z"));
    }

    @Test
    void whatAUrlAsksIsCutToWhatCanBeShown() {
        assertThat(CalendarView.of(null, null, null, TODAY)).isEqualTo(new CalendarView(TODAY, 30, false));
        assertThat(CalendarView.of(null, 7, null, TODAY)).isEqualTo(new CalendarView(TODAY, 7, true));
        assertThat(CalendarView.of(null, 7, "day", TODAY)).isEqualTo(new CalendarView(TODAY, 7, false));
        assertThat(CalendarView.of(null, 500, "hour", TODAY)).isEqualTo(new CalendarView(TODAY, 90, false));
        assertThat(CalendarView.cut(90, "hour")).isTrue();
        assertThat(CalendarView.of(null, -3, "week", TODAY)).isEqualTo(new CalendarView(TODAY, 1, true));
        assertThat(CalendarView.of("not a date", 14, "hour", TODAY).from()).isEqualTo(TODAY);
        assertThat(CalendarView.of("1999-01-01", 14, null, TODAY).from()).isEqualTo(TODAY.minusDays(31));
        assertThat(CalendarView.of("2999-01-01", 14, null, TODAY).from()).isEqualTo(TODAY.plusDays(366));
    }
}
