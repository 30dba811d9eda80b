package dev.allot.shared;

import java.time.Duration;

/**
 * A duration as people read it, for every message: {@code 7 days}, {@code 36 hours}, {@code 1 day 6 hours},
 * {@code 90 minutes}; never ISO-8601 ({@code PT168H}), which is for the API's fields.
 */
public final class DurationWords {

    private DurationWords() {}

    public static String of(Duration duration) {
        Duration d = duration.isNegative() ? duration.negated() : duration;
        long minutes = d.toMinutes();
        if (minutes == 0) {
            return d.isZero() ? "0 minutes" : "less than a minute";
        }
        if (minutes % (24 * 60) == 0) {
            return plural(minutes / (24 * 60), "day");
        }
        if (minutes % 60 == 0) {
            long hours = minutes / 60;
            return hours < 48 ? plural(hours, "hour") : plural(hours / 24, "day") + " " + plural(hours % 24, "hour");
        }
        if (minutes < 120) {
            return plural(minutes, "minute");
        }
        long hours = minutes / 60;
        if (hours >= 48) {
            return plural(hours / 24, "day") + (hours % 24 == 0 ? "" : " " + plural(hours % 24, "hour"));
        }
        return plural(hours, "hour") + " " + plural(minutes % 60, "minute");
    }

    private static String plural(long n, String unit) {
        return n + " " + unit + (n == 1 ? "" : "s");
    }
}
