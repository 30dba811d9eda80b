package dev.allot.quota.ui;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** Durations as admins type them: {@code 30d}, {@code 72h}, {@code 90m}, or ISO-8601 ({@code P30D}, {@code PT72H}). */
final class DurationText {

    private static final Pattern SHORT = Pattern.compile("^(\\d{1,6})\\s*(d|h|m)$");

    private DurationText() {}

    static @Nullable Duration parse(@Nullable String text) {
        String value = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        Matcher shortForm = SHORT.matcher(value);
        if (shortForm.matches()) {
            long amount = Long.parseLong(shortForm.group(1));
            return switch (shortForm.group(2)) {
                case "d" -> Duration.ofDays(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofMinutes(amount);
            };
        }
        try {
            return value.isEmpty() ? null : Duration.parse(value.toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException ex) {
            return null;
        }
    }

    /** The shortest of {@code 30d}, {@code 36h}, {@code 90m} that is exact. */
    static String format(Duration duration) {
        if (duration.toMinutes() % (24 * 60) == 0) {
            return duration.toDays() + "d";
        }
        if (duration.toMinutes() % 60 == 0) {
            return duration.toHours() + "h";
        }
        return duration.toMinutes() + "m";
    }
}
