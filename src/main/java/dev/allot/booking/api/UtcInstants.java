package dev.allot.booking.api;

import dev.allot.shared.InstantBounds;
import dev.allot.shared.InvalidInputException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** Instants and durations as the API takes them: ISO-8601, instants in UTC ({@code Z}) only. */
final class UtcInstants {

    private static final Pattern UTC = Pattern.compile("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?Z$");

    private UtcInstants() {}

    static @Nullable Instant optional(String field, @Nullable String value) {
        return value == null || value.isBlank() ? null : parse(field, value);
    }

    static Instant parse(String field, @Nullable String value) {
        if (value == null || value.isBlank()) {
            throw InvalidInputException.of(field, "is required");
        }
        if (!UTC.matcher(value).matches()) {
            throw InvalidInputException.of(field, "must be an ISO-8601 instant in UTC, such as 2027-01-05T09:00:00Z");
        }
        Instant instant;
        try {
            instant = Instant.parse(value);
        } catch (DateTimeParseException ex) {
            throw InvalidInputException.of(field, "is not a valid instant: " + value);
        }
        return InstantBounds.check(field, instant);
    }

    /** An instant on a whole minute: windows have minute precision. */
    static Instant minute(String field, @Nullable String value) {
        Instant instant = parse(field, value);
        if (instant.getEpochSecond() % 60 != 0 || instant.getNano() != 0) {
            throw InvalidInputException.of(field, "must be on a whole minute");
        }
        return instant;
    }

    static Duration duration(String field, @Nullable String value, Duration fallback) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Duration.parse(value);
        } catch (DateTimeParseException ex) {
            throw InvalidInputException.of(field, "must be an ISO-8601 duration, such as PT1H");
        }
    }
}
