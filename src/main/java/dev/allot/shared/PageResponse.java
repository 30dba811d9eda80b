package dev.allot.shared;

import java.util.List;
import java.util.function.Function;

/** The shape of every list: {@code {"items": [...], "page": 0, "size": 50, "totalItems": 123}}. */
public record PageResponse<T>(List<T> items, int page, int size, long totalItems) {

    public static <T> PageResponse<T> of(List<T> items, PageQuery query, long totalItems) {
        return new PageResponse<>(items, query.page(), query.size(), totalItems);
    }

    public <R> PageResponse<R> map(Function<T, R> mapper) {
        return new PageResponse<>(items.stream().map(mapper).toList(), page, size, totalItems);
    }
}
