package dev.allot.booking.spec;

import dev.allot.shared.InvalidInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A reservation's labels: a string map a pipeline tags its bookings with ({@code {"pipeline": "nightly",
 * "workload": "fine-tune"}}), to filter its lists by ({@code ?label=pipeline=nightly}) and group its usage by
 * ({@code groupBy=label:workload}). At most {@value #MAX} labels; keys are 1-63 characters of lower-case letters,
 * digits, {@code .}, {@code _} and {@code -}, starting and ending with a letter or digit (as Kubernetes label
 * names); values at most {@value #MAX_VALUE} characters without control characters.
 */
public final class Labels {

    public static final int MAX = 16;

    public static final int MAX_VALUE = 256;

    private static final Pattern KEY = Pattern.compile("[a-z0-9]([a-z0-9._-]{0,61}[a-z0-9])?");

    private Labels() {}

    /** The labels, checked (400 naming each bad one, {@code labels.<key>}); none when absent. */
    public static Map<String, String> of(@Nullable Map<String, String> labels) {
        if (labels == null || labels.isEmpty()) {
            return Map.of();
        }
        List<InvalidInputException.FieldError> errors = new ArrayList<>();
        if (labels.size() > MAX) {
            errors.add(new InvalidInputException.FieldError("labels", "must be at most " + MAX + " labels"));
        }
        labels.forEach((key, value) -> {
            if (!KEY.matcher(key).matches()) {
                errors.add(new InvalidInputException.FieldError(
                        "labels." + printable(key),
                        "must be 1-63 lower-case letters, digits, '.', '_' or '-', starting and ending with a letter "
                                + "or digit"));
            } else if (value == null
                    || value.length() > MAX_VALUE
                    || value.chars().anyMatch(Character::isISOControl)) {
                errors.add(new InvalidInputException.FieldError(
                        "labels." + key,
                        "must be a text of at most " + MAX_VALUE + " characters without control characters"));
            }
        });
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        return Map.copyOf(labels);
    }

    /** A filter {@code key=value} (the label has the value) or {@code key} (the reservation has the label). */
    public record Filter(String key, @Nullable String value) {

        public static Filter parse(String filter) {
            int eq = filter.indexOf('=');
            String key = eq < 0 ? filter : filter.substring(0, eq);
            if (!KEY.matcher(key).matches()) {
                throw InvalidInputException.of(
                        "label", "must be key=value or key, the key a label name (" + printable(filter) + ")");
            }
            return new Filter(key, eq < 0 ? null : filter.substring(eq + 1));
        }
    }

    private static String printable(String text) {
        String cut = text.length() > 80 ? text.substring(0, 80) + "…" : text;
        return cut.codePoints()
                .map(c -> Character.isISOControl(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                .toString();
    }
}
