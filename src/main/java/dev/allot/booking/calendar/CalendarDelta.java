package dev.allot.booking.calendar;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * One committed change of a pool's calendar, as {@link CapacityCalendarRepository} announces it on
 * {@value #CHANNEL}: the transaction that made it (so a replica loading the calendar can tell whether its read
 * already holds the change) and the nodes added to (or, negative, taken from) each hour and UTC day. A rebuilt
 * pool is announced as a reset. Text, since NOTIFY payloads are; 72 hours and 4 days take under a kilobyte of
 * the 8,000 bytes allowed.
 */
record CalendarDelta(
        UUID pool,
        long transaction,
        int nonce,
        boolean reset,
        Map<Instant, Integer> hours,
        Map<Instant, Integer> days) {

    static final String CHANNEL = "allot_calendar";

    CalendarDelta {
        hours = Map.copyOf(hours);
        days = Map.copyOf(days);
    }

    /** The one change of a transaction that {@link #nonce} tells from its others. */
    record Id(long transaction, int nonce) {}

    Id id() {
        return new Id(transaction, nonce);
    }

    static CalendarDelta reset(UUID pool) {
        return new CalendarDelta(pool, 0, 0, true, Map.of(), Map.of());
    }

    /** The counts part of the payload; the pool and the transaction are prepended by the database. */
    static String counts(Map<Instant, Integer> hours, Map<Instant, Integer> days) {
        return encode(hours, 3600) + ";" + encode(days, 86_400);
    }

    /** {@code <pool>;<transaction>;<hours>;<days>;<nonce>}, or {@code <pool>;reset}. */
    static CalendarDelta parse(String payload) {
        String[] parts = payload.split(";", -1);
        UUID pool = UUID.fromString(parts[0]);
        if (parts[1].equals("reset")) {
            return reset(pool);
        }
        return new CalendarDelta(
                pool,
                Long.parseLong(parts[1]),
                Integer.parseInt(parts[4]),
                false,
                decode(parts[2], 3600),
                decode(parts[3], 86_400));
    }

    /** The payload {@link CapacityCalendarRepository} has PostgreSQL send (for tests). */
    String payload() {
        return reset ? pool + ";reset" : pool + ";" + transaction + ";" + counts(hours, days) + ";" + nonce;
    }

    private static String encode(Map<Instant, Integer> counts, long unit) {
        StringBuilder text = new StringBuilder();
        counts.forEach((bucket, n) -> {
            if (!text.isEmpty()) {
                text.append(',');
            }
            text.append(bucket.getEpochSecond() / unit).append(':').append(n);
        });
        return text.toString();
    }

    private static Map<Instant, Integer> decode(String text, long unit) {
        Map<Instant, Integer> counts = new LinkedHashMap<>();
        if (text.isEmpty()) {
            return counts;
        }
        for (String entry : text.split(",")) {
            int colon = entry.indexOf(':');
            counts.merge(
                    Instant.ofEpochSecond(Long.parseLong(entry, 0, colon, 10) * unit),
                    Integer.parseInt(entry, colon + 1, entry.length(), 10),
                    Integer::sum);
        }
        return counts;
    }
}
