package dev.allot.shared.web;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;

/**
 * Times as the viewer reads them: in the time zone their browser reports (the {@value #COOKIE} cookie that
 * {@code allot.js} keeps), UTC until it has. Pages show local times with UTC on hover; forms read
 * {@code datetime-local} values in the zone they were rendered in, which the form carries along.
 */
public record ViewerTimes(ZoneId zone) {

    public static final String COOKIE = "allot_tz";

    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");

    private static final DateTimeFormatter DATE_TIME_SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private static final DateTimeFormatter ZONE = DateTimeFormatter.ofPattern("zzz", Locale.ENGLISH);

    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd");

    private static final DateTimeFormatter INPUT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm");

    public static ViewerTimes of(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies != null) {
            for (Cookie cookie : cookies) {
                if (COOKIE.equals(cookie.getName())) {
                    return new ViewerTimes(zone(URLDecoder.decode(cookie.getValue(), StandardCharsets.UTF_8)));
                }
            }
        }
        return new ViewerTimes(ZoneOffset.UTC);
    }

    /** The zone named, or UTC when the name is missing or unknown. */
    public static ZoneId zone(@Nullable String name) {
        if (name == null || name.isBlank() || name.length() > 64) {
            return ZoneOffset.UTC;
        }
        try {
            return ZoneId.of(name.strip());
        } catch (DateTimeException ex) {
            return ZoneOffset.UTC;
        }
    }

    public String zoneName() {
        return zone.normalized().equals(ZoneOffset.UTC) ? "UTC" : zone.getId();
    }

    /** {@code 2027-01-05 10:00} in the viewer's zone. */
    public String local(Instant instant) {
        return DATE_TIME.format(instant.atZone(zone));
    }

    /** The zone's short name at that instant, as shown after a time: {@code UTC}, {@code PST}, {@code CET}. */
    public String abbreviation(Instant instant) {
        return ZONE.format(instant.atZone(zone));
    }

    public String localDate(Instant instant) {
        return DATE.format(instant.atZone(zone));
    }

    /**
     * Where the viewer's days start: today's midnight in their zone and the {@code days} midnights after it, so that a
     * table by day (a quota's standing) has the viewer's days rather than UTC's. A day is 23 or 25 hours long where the
     * clocks change, and a midnight the clocks skip starts the day at its first hour.
     */
    public List<Instant> dayStarts(Instant now, int days) {
        LocalDate today = now.atZone(zone).toLocalDate();
        return IntStream.rangeClosed(0, days)
                .mapToObj(day -> today.plusDays(day).atStartOfDay(zone).toInstant())
                .toList();
    }

    /** {@code 2027-01-05 09:00 UTC}, for the hover text. */
    public String utc(Instant instant) {
        return DATE_TIME.format(instant.atZone(ZoneOffset.UTC)) + " UTC";
    }

    /** {@code 2027-01-05 10:00:07} in the viewer's zone. */
    public String localSeconds(Instant instant) {
        return DATE_TIME_SECONDS.format(instant.atZone(zone));
    }

    /** {@code 2027-01-05 09:00:07 UTC}, for the hover text. */
    public String utcSeconds(Instant instant) {
        return DATE_TIME_SECONDS.format(instant.atZone(ZoneOffset.UTC)) + " UTC";
    }

    /** A piece of a text: words, or an instant to show as a time ({@code text} then holds it as written). */
    public record Part(String text, @Nullable Instant instant) {}

    /** An instant as messages written for the API carry it: ISO 8601 in UTC, or {@link dev.allot.shared.UtcText}'s. */
    private static final Pattern INSTANT = Pattern.compile(
            "(\\d{4}-\\d{2}-\\d{2})(?:T(\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?)Z| (\\d{2}:\\d{2}) UTC)");

    /**
     * A text cut where it names an instant ({@code 2026-12-04T21:36:51.254374Z}, {@code 2026-12-04 21:36 UTC}), so
     * that a page shows each as a time in the viewer's zone instead of UTC.
     */
    public List<Part> parts(@Nullable String text) {
        if (text == null || text.isEmpty()) {
            return List.of();
        }
        List<Part> parts = new ArrayList<>();
        Matcher found = INSTANT.matcher(text);
        int from = 0;
        while (found.find()) {
            Instant instant;
            String time = found.group(2) != null ? found.group(2) : found.group(3);
            try {
                instant = Instant.parse(found.group(1) + "T" + (time.length() == 5 ? time + ":00" : time) + "Z");
            } catch (DateTimeParseException ex) {
                continue;
            }
            if (found.start() > from) {
                parts.add(new Part(text.substring(from, found.start()), null));
            }
            parts.add(new Part(found.group(), instant));
            from = found.end();
        }
        if (from < text.length()) {
            parts.add(new Part(text.substring(from), null));
        }
        return parts;
    }

    /** The value of a {@code datetime-local} input showing the instant in the viewer's zone. */
    public String input(@Nullable Instant instant) {
        return instant == null ? "" : INPUT.format(instant.atZone(zone));
    }

    /** Reads a {@code datetime-local} value in this zone; null when blank or unparsable. */
    public @Nullable Instant parse(@Nullable String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return LocalDateTime.parse(value.strip()).atZone(zone).toInstant();
        } catch (DateTimeParseException ex) {
            return null;
        }
    }
}
