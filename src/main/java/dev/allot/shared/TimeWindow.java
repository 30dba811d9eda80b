package dev.allot.shared;

import java.time.Duration;
import java.time.Instant;

/** A half-open window {@code [start, end)}; an empty or inverted window cannot exist. */
public record TimeWindow(Instant start, Instant end) {

    public TimeWindow {
        if (!end.isAfter(start)) {
            throw InvalidInputException.of("endsAt", "must be after startsAt");
        }
    }

    public Duration duration() {
        return Duration.between(start, end);
    }

    public long minutes() {
        return duration().toMinutes();
    }

    public boolean overlaps(TimeWindow other) {
        return start.isBefore(other.end) && other.start.isBefore(end);
    }

    /** Whether the other window lies wholly within this one. */
    public boolean covers(TimeWindow other) {
        return !other.start.isBefore(start) && !other.end.isAfter(end);
    }

    public boolean contains(Instant instant) {
        return !instant.isBefore(start) && instant.isBefore(end);
    }
}
