package dev.allot.booking;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.allot.shared.TimeWindow;
import org.jspecify.annotations.Nullable;

/** The hour buckets (UTC) a window touches, and how a change of window moves a node's hour counts. */
final class Hours {

	/** +1 for every hour the new window touches and the old did not, -1 for the reverse. */
	record Shift(List<Instant> hours, List<Integer> deltas) {

		boolean isEmpty() {
			return hours.isEmpty();
		}

	}

	private Hours() {
	}

	static Set<Instant> touched(@Nullable TimeWindow window) {
		Set<Instant> hours = new LinkedHashSet<>();
		if (window == null) {
			return hours;
		}
		for (Instant hour = window.start().truncatedTo(ChronoUnit.HOURS); hour.isBefore(window.end());
				hour = hour.plus(Duration.ofHours(1))) {
			hours.add(hour);
		}
		return hours;
	}

	static Shift shift(@Nullable TimeWindow before, @Nullable TimeWindow after) {
		Set<Instant> old = touched(before);
		Set<Instant> now = touched(after);
		List<Instant> hours = new ArrayList<>();
		List<Integer> deltas = new ArrayList<>();
		now.stream().filter(h -> !old.contains(h)).forEach(h -> {
			hours.add(h);
			deltas.add(1);
		});
		old.stream().filter(h -> !now.contains(h)).forEach(h -> {
			hours.add(h);
			deltas.add(-1);
		});
		return new Shift(hours, deltas);
	}

}
