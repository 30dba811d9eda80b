package dev.allot.booking.ui;

import java.time.Instant;
import java.time.ZoneId;

import dev.allot.shared.web.ViewerTimes;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CalendarViewTests {

	private static final Instant NOW = Instant.parse("2027-01-05T13:47:12Z");

	@Test
	void daysStartAtTheViewersMidnightAndHoursAtThisHour() {
		ViewerTimes berlin = new ViewerTimes(ZoneId.of("Europe/Berlin"));
		CalendarView days = CalendarView.of(30, "day");
		assertThat(days.from(NOW, berlin)).isEqualTo(Instant.parse("2027-01-04T23:00:00Z"));
		assertThat(days.to(NOW, berlin)).isEqualTo(Instant.parse("2027-02-03T23:00:00Z"));
		assertThat(CalendarView.of(14, "hour").from(NOW, berlin)).isEqualTo(Instant.parse("2027-01-05T13:00:00Z"));
	}

	@Test
	void onlyTheOfferedRangesAreShownAndHoursAtMostFourteenDays() {
		assertThat(CalendarView.of(null, null)).isEqualTo(new CalendarView(14, false));
		assertThat(CalendarView.of(7, "day")).isEqualTo(new CalendarView(14, false));
		assertThat(CalendarView.of(90, "hour")).isEqualTo(new CalendarView(14, true));
		assertThat(CalendarView.cut(90, "hour")).isTrue();
		assertThat(CalendarView.of(90, "week")).isEqualTo(new CalendarView(90, false));
	}

	@Test
	void theColourLevelFollowsTheShareFreeAndNoneFreeIsItsOwnLevel() {
		assertThat(CalendarGrid.level(0, 64)).isZero();
		assertThat(CalendarGrid.level(8, 64)).isEqualTo(1);
		assertThat(CalendarGrid.level(16, 64)).isEqualTo(1);
		assertThat(CalendarGrid.level(24, 64)).isEqualTo(2);
		assertThat(CalendarGrid.level(48, 64)).isEqualTo(3);
		assertThat(CalendarGrid.level(56, 64)).isEqualTo(4);
		assertThat(CalendarGrid.level(64, 64)).isEqualTo(4);
		assertThat(CalendarGrid.level(0, 0)).isZero();
	}

}
