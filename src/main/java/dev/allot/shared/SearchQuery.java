package dev.allot.shared;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * {@code ?q=&sort=field,dir&page=&size=} of an admin list at fleet scale: a search text, one of the list's own
 * {@link Columns} to sort by (never SQL from the request: the field names a column's expression) and a page. Each
 * bad parameter is refused with a message that says what it takes.
 */
public record SearchQuery(
        Columns columns, @Nullable String text, String sortField, boolean descending, PageQuery page) {

    public static final int MAX_TEXT = 100;

    public static final int DEFAULT_SIZE = 50;

    public static final int MAX_SIZE = 200;

    public SearchQuery {
        if (columns.expression(sortField).isEmpty()) {
            throw InvalidInputException.of("sort", columns.sortHelp(sortField));
        }
        text = text == null || text.isBlank() ? null : text.strip();
        if (text != null && text.length() > MAX_TEXT) {
            throw InvalidInputException.of("q", "Search for at most " + MAX_TEXT + " characters");
        }
    }

    /**
     * The columns a list may be sorted by, each named by its field (as the page's {@code ?sort=} names it) with the
     * SQL expression it stands for; {@code tieBreaker} orders rows equal in that column, so that pages neither
     * repeat nor skip a row.
     */
    public record Columns(Map<String, String> sql, String defaultField, boolean defaultDescending, String tieBreaker) {

        public Columns {
            sql = Collections.unmodifiableMap(new LinkedHashMap<>(sql));
            if (!sql.containsKey(defaultField)) {
                throw new IllegalArgumentException("no column " + defaultField);
            }
        }

        /** {@code field, sql, field, sql, ...}, the first the default, sorted ascending. */
        public static Columns of(String tieBreaker, String... fieldsAndSql) {
            Map<String, String> sql = new LinkedHashMap<>();
            for (int i = 0; i + 1 < fieldsAndSql.length; i += 2) {
                sql.put(fieldsAndSql[i], fieldsAndSql[i + 1]);
            }
            return new Columns(sql, fieldsAndSql[0], false, tieBreaker);
        }

        /** The same columns, sorted by default on {@code field} in that direction. */
        public Columns byDefault(String field, boolean descending) {
            return new Columns(sql, field, descending, tieBreaker);
        }

        Optional<String> expression(String field) {
            return Optional.ofNullable(sql.get(field));
        }

        public List<String> fields() {
            return List.copyOf(sql.keySet());
        }

        String sortHelp(String asked) {
            return "Sort by one of " + String.join(", ", sql.keySet()) + ", then ,asc or ,desc (such as " + defaultField
                    + ",asc); \"" + shown(asked) + "\" is not one";
        }

        private static String shown(String asked) {
            String stripped = asked.strip();
            return stripped.length() <= 40 ? stripped : stripped.substring(0, 39) + "…";
        }

        /** The list as it opens: no search, the default order, the first page. */
        public SearchQuery defaults() {
            return new SearchQuery(this, null, defaultField, defaultDescending, new PageQuery(0, DEFAULT_SIZE));
        }

        /** Reads the request's parameters as typed; a bad one is an {@link InvalidInputException} naming it. */
        public SearchQuery read(
                @Nullable String q, @Nullable String sort, @Nullable String page, @Nullable String size) {
            String field = defaultField;
            boolean descending = defaultDescending;
            if (sort != null && !sort.isBlank()) {
                String[] parts = sort.strip().split(",", -1);
                if (parts.length > 2 || !sql.containsKey(parts[0].strip())) {
                    throw InvalidInputException.of("sort", sortHelp(sort));
                }
                field = parts[0].strip();
                if (parts.length == 2) {
                    String direction = parts[1].strip().toLowerCase(Locale.ROOT);
                    if (!direction.equals("asc") && !direction.equals("desc")) {
                        throw InvalidInputException.of("sort", sortHelp(sort));
                    }
                    descending = direction.equals("desc");
                } else {
                    descending = false;
                }
            }
            int pageNumber = number(
                    page,
                    "page",
                    0,
                    0,
                    Integer.MAX_VALUE / MAX_SIZE,
                    "Page must be a whole number, 0 for the first page");
            int pageSize = number(
                    size, "size", DEFAULT_SIZE, 1, MAX_SIZE, "Size must be a whole number from 1 to " + MAX_SIZE);
            return new SearchQuery(this, q, field, descending, new PageQuery(pageNumber, pageSize));
        }

        private static int number(@Nullable String value, String field, int absent, int min, int max, String help) {
            if (value == null || value.isBlank()) {
                return absent;
            }
            try {
                int number = Integer.parseInt(value.strip());
                if (number >= min && number <= max) {
                    return number;
                }
            } catch (NumberFormatException ex) {
                // answered below
            }
            throw InvalidInputException.of(field, help);
        }
    }

    /** {@code ORDER BY} the chosen column, then the tie breaker; built from the whitelist only. */
    public String orderBy() {
        String expression = columns.expression(sortField).orElseThrow();
        return " ORDER BY " + expression + (descending ? " DESC NULLS LAST" : " ASC NULLS FIRST") + ", "
                + columns.tieBreaker();
    }

    /** The search text as an {@code ILIKE ... ESCAPE '\'} pattern matching it anywhere; null without one. */
    public @Nullable String pattern() {
        if (text == null) {
            return null;
        }
        return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
    }

    /** {@code name,asc}: the order as {@code ?sort=} says it. */
    public String sortParam() {
        return sortField + (descending ? ",desc" : ",asc");
    }

    /** The order a click on the column's heading asks for: the other direction of the current one, else ascending. */
    public String sortParamFor(String field) {
        return field + (field.equals(sortField) && !descending ? ",desc" : ",asc");
    }

    /** {@code aria-sort} of the column's heading. */
    public String ariaSort(String field) {
        return !field.equals(sortField) ? "none" : descending ? "descending" : "ascending";
    }

    public boolean isDefault() {
        return text == null
                && sortField.equals(columns.defaultField())
                && descending == columns.defaultDescending()
                && page.page() == 0
                && page.size() == DEFAULT_SIZE;
    }

    /** The same search and order on another page. */
    public SearchQuery onPage(int number) {
        return new SearchQuery(columns, text, sortField, descending, new PageQuery(Math.max(number, 0), page.size()));
    }
}
