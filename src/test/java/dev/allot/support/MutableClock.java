package dev.allot.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock tests move by hand; only ever forward, since one application context is shared by many tests. */
public final class MutableClock extends Clock {

    private volatile Instant now;

    public MutableClock(Instant start) {
        this.now = start;
    }

    public synchronized void set(Instant instant) {
        if (instant.isBefore(now)) {
            throw new IllegalArgumentException("The test clock only moves forward: " + instant + " < " + now);
        }
        now = instant;
    }

    public void advance(Duration duration) {
        set(now.plus(duration));
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
