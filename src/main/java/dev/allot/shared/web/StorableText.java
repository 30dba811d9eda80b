package dev.allot.shared.web;

import org.jspecify.annotations.Nullable;

/**
 * Text PostgreSQL can store: it refuses U+0000 in {@code text}, and a lone UTF-16 surrogate has no UTF-8 form.
 * Input carrying either is refused at the edge as bad input, so it never reaches a query as a 500.
 */
final class StorableText {

    static final String REFUSAL = "contains a character that cannot be stored (NUL or a lone surrogate)";

    private StorableText() {}

    static boolean storable(@Nullable CharSequence text) {
        if (text == null) {
            return true;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0) {
                return false;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return false;
            }
            if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
