package dev.allot.shared;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * An instant in a message that is not shown in the viewer's zone (API details, domain refusals):
 * {@code 2027-01-05 09:00 UTC}, the zone always named, never the bare {@code 2027-01-05T09:00:00Z}.
 */
public final class UtcText {

    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    private UtcText() {}

    public static String of(Instant instant) {
        return FORMAT.format(instant);
    }
}
