package dev.allot.shared;

import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A page of a long list: the common list shape ({@link PageResponse}) and {@code next}, the cursor of the page
 * after this one ({@code ?cursor=}), or {@code null} on the last page. The answer also carries it as a
 * {@code Link: <...>; rel="next"} header.
 */
public record CursorPage<T>(
        List<T> items,
        int page,
        int size,
        long totalItems,
        @Nullable String next) {

    public <R> CursorPage<R> map(Function<T, R> mapper) {
        return new CursorPage<>(items.stream().map(mapper).toList(), page, size, totalItems, next);
    }
}
