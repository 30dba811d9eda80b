package dev.allot.booking.ui;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Which stretch of time the calendar shows: {@code days} days (1 to 90) from the start of the viewer's day
 * {@code from}, by day or by hour. Hours are shown for at most {@value #MAX_HOURLY_DAYS} days (336 columns), and
 * by default for {@value #AUTO_HOURLY_DAYS} days or fewer. The URL carries all three, so a zoomed view can be
 * shared and reloaded; whatever a URL asks is cut to what can be shown.
 */
record CalendarView(LocalDate from, int days, boolean hourly) {

    static final int DEFAULT_DAYS = 30;

    static final int MAX_DAYS = 90;

    static final int MAX_HOURLY_DAYS = 14;

    static final int AUTO_HOURLY_DAYS = 7;

    /** How far back and ahead the calendar may be moved, from today. */
    static final int MAX_DAYS_BACK = 31;

    static final int MAX_DAYS_AHEAD = 366;

    static CalendarView of(@Nullable String from, @Nullable Integer days, @Nullable String step, LocalDate today) {
        int chosen = days == null ? DEFAULT_DAYS : Math.clamp(days, 1, MAX_DAYS);
        boolean hourly =
                "hour".equals(step) ? chosen <= MAX_HOURLY_DAYS : !"day".equals(step) && chosen <= AUTO_HOURLY_DAYS;
        return new CalendarView(start(from, today), chosen, hourly);
    }

    private static LocalDate start(@Nullable String from, LocalDate today) {
        if (from == null || from.isBlank() || from.length() > 10) {
            return today;
        }
        try {
            LocalDate asked = LocalDate.parse(from.strip());
            LocalDate first = today.minusDays(MAX_DAYS_BACK);
            LocalDate last = today.plusDays(MAX_DAYS_AHEAD);
            return asked.isBefore(first) ? first : asked.isAfter(last) ? last : asked;
        } catch (DateTimeParseException ex) {
            return today;
        }
    }

    /** Whether hours were asked for a stretch too long to show by hour (it is then shown by day). */
    static boolean cut(@Nullable Integer days, @Nullable String step) {
        return "hour".equals(step) && days != null && days > MAX_HOURLY_DAYS;
    }

    public String step() {
        return hourly ? "hour" : "day";
    }

    Instant start(ZoneId zone) {
        return dayStart(from, zone);
    }

    Instant end(ZoneId zone) {
        return dayStart(from.plusDays(days), zone);
    }

    /** The columns' starts and, last, the end of the view: local days (23 or 25 hours at a DST change) or hours. */
    List<Instant> bounds(ZoneId zone) {
        List<Instant> bounds = new ArrayList<>();
        if (hourly) {
            Instant end = end(zone);
            for (Instant at = start(zone); !at.isAfter(end); at = at.plus(1, ChronoUnit.HOURS)) {
                bounds.add(at);
            }
        } else {
            for (int day = 0; day <= days; day++) {
                bounds.add(dayStart(from.plusDays(day), zone));
            }
        }
        return bounds;
    }

    /**
     * Midnight in the zone, on the hour: capacity is counted by the hour in UTC, so in a zone such as +05:30 or +05:45
     * the day starts at the first hour after midnight (00:30, 00:45), never at the last one before it (which belongs
     * to the day before).
     */
    private static Instant dayStart(LocalDate day, ZoneId zone) {
        Instant midnight = day.atStartOfDay(zone).toInstant();
        Instant hour = midnight.truncatedTo(ChronoUnit.HOURS);
        return hour.equals(midnight) ? hour : hour.plus(1, ChronoUnit.HOURS);
    }
}
