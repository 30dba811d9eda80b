package dev.allot.shared;

import java.time.Instant;

/**
 * The instants Allot accepts from a caller: from 1970 through 2999. Anything beyond (year 9999, or
 * +1000000000) is a mistake or a probe, and past PostgreSQL's or Java's range it would overflow into a 500;
 * every reader of a caller's instant (JSON bodies, query parameters, the text fields parsed by hand) refuses it
 * as bad input naming the field.
 */
public final class InstantBounds {

    public static final Instant EARLIEST = Instant.parse("1970-01-01T00:00:00Z");

    public static final Instant LATEST = Instant.parse("2999-12-31T23:59:59.999999999Z");

    public static final String REFUSAL = "must be between 1970-01-01T00:00:00Z and 2999-12-31T23:59:59Z";

    private InstantBounds() {}

    public static boolean within(Instant instant) {
        return !instant.isBefore(EARLIEST) && !instant.isAfter(LATEST);
    }

    /** The instant, or a 400 naming the field when it lies outside the bounds. */
    public static Instant check(String field, Instant instant) {
        if (!within(instant)) {
            throw InvalidInputException.of(field, REFUSAL);
        }
        return instant;
    }
}
