package dev.allot.booking.ui;

import dev.allot.shared.DurationWords;
import java.time.Duration;

/** A duration as people read it: {@code 3 days}, {@code 36 hours}, {@code 90 minutes}. */
final class Durations {

    private Durations() {}

    static String text(Duration duration) {
        return DurationWords.of(duration);
    }
}
