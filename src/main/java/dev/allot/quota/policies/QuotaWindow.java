package dev.allot.quota.policies;

import dev.allot.shared.InvalidInputException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.zone.ZoneOffsetTransition;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * A time-window quota: on the given days, from {@code from} to {@code to} in the policy's zone, the tenant may hold
 * up to {@code maxGpus} (instead of the policy's {@code maxGpus}). A window whose end is not after its start runs
 * past midnight into the next day ({@code 20:00} to {@code 06:00}); {@code days} are the days it starts on.
 *
 * @param fromMinute minutes after local midnight the window starts (0-1439)
 * @param toMinute minutes after local midnight it ends (1-1440; 1440 is {@code 24:00})
 */
public record QuotaWindow(Set<DayOfWeek> days, int fromMinute, int toMinute, int maxGpus) {

    private static final Pattern TIME = Pattern.compile("^([01]\\d|2[0-4]):([0-5]\\d)$");

    private static final Pattern STORED =
            Pattern.compile("^([A-Z][A-Z, -]*?) ?(\\d\\d:\\d\\d) ?- ?(\\d\\d:\\d\\d) (\\d{1,6})$");

    public QuotaWindow {
        days = days.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(days));
    }

    /** Parses a window as the API takes it; errors name {@code field.days}, {@code field.from} and so on. */
    public static QuotaWindow of(
            String field,
            @Nullable List<String> days,
            @Nullable String from,
            @Nullable String to,
            @Nullable Integer maxGpus) {
        List<InvalidInputException.FieldError> errors = new ArrayList<>();
        EnumSet<DayOfWeek> parsed = EnumSet.noneOf(DayOfWeek.class);
        if (days == null || days.isEmpty()) {
            errors.add(
                    new InvalidInputException.FieldError(field + ".days", "must name at least one day, such as SAT"));
        } else {
            for (String day : days) {
                DayOfWeek found = day == null ? null : dayOf(day);
                if (found == null) {
                    errors.add(new InvalidInputException.FieldError(
                            field + ".days", "must be days as MON, TUE, WED, THU, FRI, SAT or SUN, not " + day));
                } else {
                    parsed.add(found);
                }
            }
        }
        Integer start = minutes(field + ".from", from, false, errors);
        Integer end = minutes(field + ".to", to, true, errors);
        if (start != null && end != null && start.equals(end % 1440) && end != 1440) {
            errors.add(new InvalidInputException.FieldError(field + ".to", "must differ from from"));
        }
        if (maxGpus == null || maxGpus < 0) {
            errors.add(new InvalidInputException.FieldError(field + ".maxGpus", "must be 0 or more"));
        }
        if (!errors.isEmpty() || start == null || end == null || maxGpus == null) {
            throw new InvalidInputException(errors); // each null has its error
        }
        return new QuotaWindow(parsed, start, end, maxGpus);
    }

    /** The stored form, as {@code SAT,SUN 00:00-24:00 64}. */
    public String stored() {
        return days.stream().sorted().map(d -> d.name().substring(0, 3)).collect(Collectors.joining(",")) + " " + from()
                + "-" + to() + " " + maxGpus;
    }

    /** Parses the stored (and typed) form, {@code SAT,SUN 00:00-24:00 64}; errors name {@code windows}. */
    public static QuotaWindow ofText(String text) {
        Matcher m = STORED.matcher(text.strip().toUpperCase(Locale.ROOT).replaceAll("\\s+", " "));
        if (!m.matches()) {
            throw InvalidInputException.of("windows", "is not in the form DAYS HH:MM-HH:MM GPUS");
        }
        List<String> days = new ArrayList<>();
        for (String token : m.group(1).strip().split("\\s*,\\s*|\\s+")) {
            String[] range = token.split("-");
            DayOfWeek first = range.length == 2 ? dayOf(range[0]) : null;
            DayOfWeek last = range.length == 2 ? dayOf(range[1]) : null;
            if (first == null || last == null) {
                days.add(token);
                continue;
            }
            for (DayOfWeek day = first; ; day = day.plus(1)) {
                days.add(day.name());
                if (day == last) {
                    break;
                }
            }
        }
        return of("windows", days, m.group(2), m.group(3), Integer.parseInt(m.group(4)));
    }

    public List<String> dayNames() {
        return days.stream().sorted().map(d -> d.name().substring(0, 3)).toList();
    }

    public String from() {
        return text(fromMinute);
    }

    public String to() {
        return text(toMinute);
    }

    boolean overnight() {
        return toMinute <= fromMinute;
    }

    /** Whether the window holds the instant, read in {@code zone}. */
    public boolean covers(Instant instant, ZoneId zone) {
        LocalDateTime local = LocalDateTime.ofInstant(instant, zone);
        int minute = local.getHour() * 60 + local.getMinute();
        DayOfWeek day = local.getDayOfWeek();
        if (!overnight()) {
            return days.contains(day) && minute >= fromMinute && minute < toMinute;
        }
        return days.contains(day) && minute >= fromMinute || days.contains(day.minus(1)) && minute < toMinute;
    }

    /** The instants in {@code (start, end)} where the window begins or ends, read in {@code zone}. */
    public void edges(Instant start, Instant end, ZoneId zone, Set<Instant> into) {
        LocalDate last = LocalDate.ofInstant(end, zone);
        for (LocalDate day = LocalDate.ofInstant(start, zone).minusDays(1); !day.isAfter(last); day = day.plusDays(1)) {
            if (!days.contains(day.getDayOfWeek())) {
                continue;
            }
            Instant opens = at(day, fromMinute, zone);
            Instant closes = at(overnight() ? day.plusDays(1) : day, toMinute, zone);
            for (Instant edge : List.of(opens, closes)) {
                if (edge.isAfter(start) && edge.isBefore(end)) {
                    into.add(edge);
                }
            }
        }
    }

    /**
     * The instant of that local time; for one a daylight-saving change skips, the change itself, the first instant
     * whose local time is past it (as {@link #covers} reads it), not the later one {@code ZonedDateTime} moves it to.
     */
    private static Instant at(LocalDate day, int minute, ZoneId zone) {
        LocalDateTime local = day.atStartOfDay().plusMinutes(minute);
        ZoneOffsetTransition skipped = zone.getRules().getTransition(local);
        return skipped != null && skipped.isGap()
                ? skipped.getInstant()
                : ZonedDateTime.of(local, zone).toInstant();
    }

    private static String text(int minute) {
        return String.format(Locale.ROOT, "%02d:%02d", minute / 60, minute % 60);
    }

    private static @Nullable DayOfWeek dayOf(String day) {
        String upper = day.strip().toUpperCase(Locale.ROOT);
        for (DayOfWeek candidate : DayOfWeek.values()) {
            if (upper.length() >= 3 && candidate.name().startsWith(upper)) {
                return candidate;
            }
        }
        return null;
    }

    private static @Nullable Integer minutes(
            String field, @Nullable String time, boolean end, List<InvalidInputException.FieldError> errors) {
        Matcher m = time == null ? null : TIME.matcher(time.strip());
        int minute = m != null && m.matches() ? Integer.parseInt(m.group(1)) * 60 + Integer.parseInt(m.group(2)) : -1;
        if (minute < 0 || minute > 1440 || minute == 1440 && !end) {
            errors.add(new InvalidInputException.FieldError(
                    field,
                    end ? "must be a time from 00:00 to 24:00, such as 06:00" : "must be a time from 00:00 to 23:59"));
            return null;
        }
        return minute;
    }
}
