package dev.allot.inventory.ui;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Hostnames written the way Slurm writes node lists: {@code gpu-[001-016]}, {@code gpu-[001-004,010]},
 * {@code r[1-2]-n[01-08]}, or several such items separated by commas or spaces. A range keeps the zero
 * padding of its start.
 */
final class HostnameRange {

    static final int MAX_NODES = 1000;

    private static final Pattern HOSTNAME = Pattern.compile("^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$");

    private static final Pattern NUMBER = Pattern.compile("^[0-9]{1,9}$");

    /** Why an expression does not expand. */
    static final class Invalid extends Exception {

        Invalid(String message) {
            super(message, null, false, false);
        }

        /** Never null: an invalid range always says why. */
        @Override
        public String getMessage() {
            return Objects.requireNonNull(super.getMessage(), "an invalid range always says why");
        }
    }

    private HostnameRange() {}

    /** The hostnames, in order, without duplicates. */
    static List<String> expand(String expression) throws Invalid {
        Set<String> hostnames = new LinkedHashSet<>();
        for (String item : items(expression.strip())) {
            for (String hostname : expandItem(item)) {
                if (!HOSTNAME.matcher(hostname).matches()) {
                    throw new Invalid("\"" + hostname + "\" is not a host name: use lower-case letters, digits, dots "
                            + "and hyphens");
                }
                hostnames.add(hostname);
                if (hostnames.size() > MAX_NODES) {
                    throw new Invalid("That is more than " + MAX_NODES + " nodes; add them in parts");
                }
            }
        }
        if (hostnames.isEmpty()) {
            throw new Invalid("Enter a host name or a range such as gpu-[001-016]");
        }
        return List.copyOf(hostnames);
    }

    /** Splits at commas and spaces outside brackets. */
    private static List<String> items(String expression) throws Invalid {
        List<String> items = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int depth = 0;
        for (char c : expression.toCharArray()) {
            if (c == '[') {
                depth++;
                if (depth > 1) {
                    throw new Invalid("Brackets cannot be nested");
                }
            } else if (c == ']') {
                depth--;
                if (depth < 0) {
                    throw new Invalid("A \"]\" has no \"[\"");
                }
            }
            if (depth == 0 && (c == ',' || Character.isWhitespace(c))) {
                if (!current.isEmpty()) {
                    items.add(current.toString());
                    current.setLength(0);
                }
            } else {
                current.append(c);
            }
        }
        if (depth != 0) {
            throw new Invalid("A \"[\" is not closed");
        }
        if (!current.isEmpty()) {
            items.add(current.toString());
        }
        return items;
    }

    private static List<String> expandItem(String item) throws Invalid {
        int open = item.indexOf('[');
        if (open < 0) {
            return List.of(item);
        }
        int close = item.indexOf(']', open);
        String prefix = item.substring(0, open);
        List<String> rests = expandItem(item.substring(close + 1));
        List<String> expanded = new ArrayList<>();
        for (String number : numbers(item.substring(open + 1, close))) {
            for (String rest : rests) {
                expanded.add(prefix + number + rest);
                if (expanded.size() > MAX_NODES) {
                    throw new Invalid("That is more than " + MAX_NODES + " nodes; add them in parts");
                }
            }
        }
        return expanded;
    }

    private static List<String> numbers(String inside) throws Invalid {
        List<String> numbers = new ArrayList<>();
        for (String part : inside.split(",", -1)) {
            String[] bounds = part.strip().split("-", -1);
            if (bounds.length > 2
                    || !NUMBER.matcher(bounds[0]).matches()
                    || (bounds.length == 2 && !NUMBER.matcher(bounds[1]).matches())) {
                throw new Invalid(
                        "Inside brackets write numbers or ranges such as 001-016, not \"" + part.strip() + "\"");
            }
            if (bounds.length == 1) {
                numbers.add(bounds[0]);
                continue;
            }
            int from = Integer.parseInt(bounds[0]);
            int to = Integer.parseInt(bounds[1]);
            if (to < from) {
                throw new Invalid("The range " + part.strip() + " runs backwards");
            }
            if (to - from >= MAX_NODES) {
                throw new Invalid("That is more than " + MAX_NODES + " nodes; add them in parts");
            }
            int width = bounds[0].startsWith("0") ? bounds[0].length() : 1;
            for (int n = from; n <= to; n++) {
                numbers.add(String.format("%0" + width + "d", n));
            }
        }
        return numbers;
    }
}
