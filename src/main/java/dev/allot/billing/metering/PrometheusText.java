package dev.allot.billing.metering;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Reads Prometheus's text exposition format (version 0.0.4, what DCGM's exporter serves): {@code #} lines are
 * comments (HELP and TYPE included), blank lines are skipped, and every other line is a sample,
 * {@code name{label="value",...} value [timestamp]}, label values escaping {@code \\}, {@code \"} and {@code \n},
 * the timestamp (milliseconds since the epoch) optional. A line that is none of these is counted as bad and skipped.
 */
final class PrometheusText {

    /** One sample line. */
    record Series(
            String name,
            Map<String, String> labels,
            double value,
            @Nullable Long timestampMillis) {}

    /** The sample lines of the wanted metric, and how many lines (of any metric) could not be read. */
    record Parsed(List<Series> series, int badLines) {}

    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

    private static final Pattern FLOAT = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?|[+-]?Inf|NaN");

    private static final Pattern INTEGER = Pattern.compile("-?\\d{1,19}");

    private PrometheusText() {}

    static Parsed parse(String text, String metric) {
        List<Series> series = new ArrayList<>();
        int bad = 0;
        for (String raw : text.split("\n", -1)) {
            String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
            if (line.isBlank() || line.stripLeading().startsWith("#")) {
                continue;
            }
            Series s = line(line);
            if (s == null) {
                bad++;
            } else if (s.name().equals(metric)) {
                series.add(s);
            }
        }
        return new Parsed(series, bad);
    }

    private static @Nullable Series line(String line) {
        int i = skipSpaces(line, 0);
        int nameEnd = i;
        while (nameEnd < line.length()
                && line.charAt(nameEnd) != '{'
                && line.charAt(nameEnd) != ' '
                && line.charAt(nameEnd) != '\t') {
            nameEnd++;
        }
        String name = line.substring(i, nameEnd);
        if (!NAME.matcher(name).matches()) {
            return null;
        }
        Map<String, String> labels = new LinkedHashMap<>();
        i = skipSpaces(line, nameEnd);
        if (i < line.length() && line.charAt(i) == '{') {
            i = labels(line, i + 1, labels);
            if (i < 0) {
                return null;
            }
        }
        String[] rest = line.substring(i).trim().split("[ \t]+");
        if (rest.length < 1
                || rest.length > 2
                || !FLOAT.matcher(rest[0]).matches()
                || rest.length == 2 && !INTEGER.matcher(rest[1]).matches()) {
            return null;
        }
        double value = switch (rest[0]) {
            case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(rest[0]);
        };
        Long timestamp;
        try {
            timestamp = rest.length == 2 ? Long.parseLong(rest[1]) : null;
        } catch (NumberFormatException ex) {
            return null;
        }
        return new Series(name, labels, value, timestamp);
    }

    /** Reads labels after the {@code {}; answers the index after the closing {@code }}, or -1 when malformed. */
    private static int labels(String line, int from, Map<String, String> labels) {
        int i = skipSpaces(line, from);
        while (i < line.length() && line.charAt(i) != '}') {
            int eq = line.indexOf('=', i);
            if (eq < 0) {
                return -1;
            }
            String label = line.substring(i, eq).trim();
            i = skipSpaces(line, eq + 1);
            if (!LABEL_NAME.matcher(label).matches() || i >= line.length() || line.charAt(i) != '"') {
                return -1;
            }
            StringBuilder value = new StringBuilder();
            i++;
            while (true) {
                if (i >= line.length()) {
                    return -1;
                }
                char c = line.charAt(i++);
                if (c == '"') {
                    break;
                }
                if (c == '\\') {
                    if (i >= line.length()) {
                        return -1;
                    }
                    char e = line.charAt(i++);
                    switch (e) {
                        case '\\' -> value.append('\\');
                        case '"' -> value.append('"');
                        case 'n' -> value.append('\n');
                        default -> {
                            return -1;
                        }
                    }
                } else {
                    value.append(c);
                }
            }
            if (labels.put(label, value.toString()) != null) {
                return -1;
            }
            i = skipSpaces(line, i);
            if (i < line.length() && line.charAt(i) == ',') {
                i = skipSpaces(line, i + 1);
            } else if (i < line.length() && line.charAt(i) != '}') {
                return -1;
            }
        }
        return i < line.length() ? i + 1 : -1;
    }

    private static int skipSpaces(String line, int from) {
        int i = from;
        while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }
}
