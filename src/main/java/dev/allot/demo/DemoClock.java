package dev.allot.demo;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import org.jspecify.annotations.Nullable;

/**
 * The application's clock as the demo sees it: the real one, except while the demo replays its month of history
 * at the first start. The demo then pins it at an instant in the past and moves it forward only, as it goes, until
 * it catches up with the real clock and lets go ({@link #release()}). Every service asks this clock for "now", so
 * the history is made by the services themselves at the times it happened.
 */
final class DemoClock extends Clock {

    private final Clock real;

    private volatile @Nullable Instant pinned;

    DemoClock(Clock real) {
        this.real = real;
    }

    /** Pins the clock at {@code start}, in the past. */
    synchronized void rewind(Instant start) {
        if (pinned != null) {
            throw new IllegalStateException("The demo clock is already replaying, at " + pinned);
        }
        if (start.isAfter(real.instant())) {
            throw new IllegalArgumentException("The demo clock only replays the past: " + start);
        }
        pinned = start;
    }

    /** Moves the pinned clock to {@code instant}, forward only and never past the real clock. */
    synchronized void moveTo(Instant instant) {
        Instant now = pinned;
        if (now == null) {
            throw new IllegalStateException("The demo clock is not replaying");
        }
        if (instant.isBefore(now)) {
            throw new IllegalArgumentException("The demo clock only moves forward: " + instant + " < " + now);
        }
        Instant limit = real.instant();
        pinned = instant.isAfter(limit) ? limit : instant;
    }

    /** Back to the real clock. */
    synchronized void release() {
        pinned = null;
    }

    boolean replaying() {
        return pinned != null;
    }

    /** The real instant, whatever the demo replays. */
    Instant realInstant() {
        return real.instant();
    }

    @Override
    public Instant instant() {
        Instant now = pinned;
        return now != null ? now : real.instant();
    }

    @Override
    public ZoneId getZone() {
        return real.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return real.withZone(zone);
    }
}
