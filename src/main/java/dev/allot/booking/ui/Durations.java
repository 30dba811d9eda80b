package dev.allot.booking.ui;

import java.time.Duration;

/** A duration as people read it: {@code 3 days}, {@code 36 hours}, {@code 90 minutes}. */
final class Durations {

	private Durations() {
	}

	static String text(Duration duration) {
		long minutes = duration.toMinutes();
		if (minutes % (24 * 60) == 0) {
			return plural(minutes / (24 * 60), "day");
		}
		if (minutes % 60 == 0) {
			return plural(minutes / 60, "hour");
		}
		return plural(minutes, "minute");
	}

	private static String plural(long n, String unit) {
		return n + " " + unit + (n == 1 ? "" : "s");
	}

}
