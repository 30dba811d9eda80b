package dev.allot.billing.reports;

import dev.allot.shared.InstantBounds;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.InvalidInputException.FieldError;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** A report's {@code [from, to)}: UTC instants or dates (a date is its 00:00 UTC), at most 400 days. */
public record ReportRange(Instant from, Instant to) {

    private static final Duration LONGEST = Duration.ofDays(400);

    public static ReportRange parse(
            @Nullable String from, @Nullable String to, Instant defaultFrom, Instant defaultTo) {
        List<FieldError> errors = new ArrayList<>();
        Instant start = instant("from", from, defaultFrom, errors);
        Instant end = instant("to", to, defaultTo, errors);
        if (errors.isEmpty() && !end.isAfter(start)) {
            errors.add(new FieldError("to", "must be after from"));
        }
        if (errors.isEmpty() && Duration.between(start, end).compareTo(LONGEST) > 0) {
            errors.add(new FieldError("to", "the range may cover at most 400 days"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        return new ReportRange(start, end);
    }

    private static Instant instant(String field, @Nullable String value, Instant fallback, List<FieldError> errors) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            Instant instant = null;
            if (value.matches("^\\d{4}-\\d{2}-\\d{2}$")) {
                instant = LocalDate.parse(value).atStartOfDay().toInstant(ZoneOffset.UTC);
            } else if (value.toUpperCase(Locale.ROOT).endsWith("Z")) {
                instant = Instant.parse(value);
            }
            if (instant != null && !InstantBounds.within(instant)) {
                errors.add(new FieldError(field, InstantBounds.REFUSAL));
                return fallback;
            }
            if (instant != null) {
                return instant;
            }
        } catch (DateTimeParseException ex) {
            // reported below
        }
        errors.add(new FieldError(field, "must be a UTC instant (2027-01-05T00:00:00Z) or a date (2027-01-05)"));
        return fallback;
    }
}
