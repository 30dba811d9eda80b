package dev.allot.shared;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A page of a long list (API.md): {@code ?limit=&cursor=} read on by keyset, or {@code ?page=&size=} as an offset
 * for clients that only know the common list shape ({@code limit} is {@code size} by its cursor name). The cursor
 * is opaque to clients: the sort key of the last item a page gave, so that the next page neither repeats nor skips
 * an item when others are added in between. {@code after} is that key, or {@code null} on the first page.
 */
public record ListQuery(PageQuery page, @Nullable List<String> after) {

    private static final String VERSION = "v1";

    /** {@code keyParts}: how many values the list's sort key has, which a cursor of it must carry. */
    public static ListQuery of(
            @Nullable Integer page,
            @Nullable Integer size,
            @Nullable Integer limit,
            @Nullable String cursor,
            int keyParts) {
        if (size != null && limit != null) {
            throw InvalidInputException.of("limit", "cannot be combined with size (limit is size by another name)");
        }
        boolean hasCursor = cursor != null && !cursor.isBlank();
        if (hasCursor && page != null) {
            throw InvalidInputException.of("page", "cannot be combined with cursor");
        }
        PageQuery query = PageQuery.of(page, limit != null ? limit : size);
        return new ListQuery(query, cursor != null && hasCursor ? decode(cursor, keyParts) : null);
    }

    /** The rows to skip: none after a cursor. */
    public long offset() {
        return after == null ? page.offset() : 0;
    }

    /** How many rows to read: one more than the page, to learn whether another page follows. */
    public int rowsToRead() {
        return page.size() + 1;
    }

    /** The page of {@code rows} (read with {@link #rowsToRead()}), with the cursor to the next one if any. */
    public <T> CursorPage<T> answer(List<T> rows, long totalItems, Function<T, List<String>> key) {
        List<T> items = rows.size() > page.size() ? rows.subList(0, page.size()) : rows;
        String next = rows.size() > page.size() ? encode(key.apply(items.getLast())) : null;
        return new CursorPage<>(List.copyOf(items), page.page(), page.size(), totalItems, next);
    }

    /** Part {@code i} of the cursor's key, read as {@code parse} reads it; a cursor that does not parse is a 400. */
    public <T> T key(int i, Function<String, T> parse) {
        if (after == null) {
            throw new IllegalStateException("no cursor");
        }
        try {
            return parse.apply(after.get(i));
        } catch (RuntimeException malformed) {
            throw badCursor();
        }
    }

    static String encode(List<String> key) {
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString((VERSION + "|" + String.join("|", key)).getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> decode(String cursor, int keyParts) {
        try {
            String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split("\\|", -1);
            if (parts.length == keyParts + 1 && parts[0].equals(VERSION)) {
                return List.copyOf(Arrays.asList(parts).subList(1, parts.length));
            }
        } catch (IllegalArgumentException notBase64) {
            // answered below
        }
        throw badCursor();
    }

    private static InvalidInputException badCursor() {
        return InvalidInputException.of("cursor", "is not a cursor this list gave (pass the next of its last page)");
    }
}
