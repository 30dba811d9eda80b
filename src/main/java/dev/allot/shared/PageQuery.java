package dev.allot.shared;

import org.jspecify.annotations.Nullable;

/** {@code ?page=&size=}: a page of a list; size at most 500. */
public record PageQuery(int page, int size) {

    public static final int MAX_SIZE = 500;

    public PageQuery {
        if (page < 0) {
            throw InvalidInputException.of("page", "must be 0 or more");
        }
        if (size < 1 || size > MAX_SIZE) {
            throw InvalidInputException.of("size", "must be between 1 and " + MAX_SIZE);
        }
    }

    public static PageQuery of(@Nullable Integer page, @Nullable Integer size) {
        return new PageQuery(page == null ? 0 : page, size == null ? 50 : size);
    }

    public long offset() {
        return (long) page * size;
    }
}
