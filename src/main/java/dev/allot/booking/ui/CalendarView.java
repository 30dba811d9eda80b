package dev.allot.booking.ui;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;

import dev.allot.shared.web.ViewerTimes;
import org.jspecify.annotations.Nullable;

/**
 * Which stretch of time the calendar shows: the next 14, 30 or 90 days, by day (from the start of the viewer's
 * day) or by hour (from this hour; at most 14 days, 336 columns).
 */
record CalendarView(int days, boolean hourly) {

	static final int MAX_HOURLY_DAYS = 14;

	static CalendarView of(@Nullable Integer days, @Nullable String step) {
		int chosen = days != null && (days == 30 || days == 90) ? days : 14;
		boolean hourly = "hour".equals(step);
		return new CalendarView(hourly ? Math.min(chosen, MAX_HOURLY_DAYS) : chosen, hourly);
	}

	/** Whether an hourly view of more days was asked for and cut to 14. */
	static boolean cut(@Nullable Integer days, @Nullable String step) {
		return "hour".equals(step) && days != null && days > MAX_HOURLY_DAYS;
	}

	public String step() {
		return hourly ? "hour" : "day";
	}

	Duration stepDuration() {
		return hourly ? Duration.ofHours(1) : Duration.ofDays(1);
	}

	Instant from(Instant now, ViewerTimes times) {
		if (hourly) {
			return now.truncatedTo(ChronoUnit.HOURS);
		}
		LocalDate today = LocalDate.ofInstant(now, times.zone());
		return today.atStartOfDay(times.zone()).toInstant().truncatedTo(ChronoUnit.HOURS);
	}

	Instant to(Instant now, ViewerTimes times) {
		return from(now, times).plus(Duration.ofDays(days));
	}

}
