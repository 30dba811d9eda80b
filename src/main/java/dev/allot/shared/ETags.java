package dev.allot.shared;

import org.jspecify.annotations.Nullable;

/**
 * An {@code If-Match} precondition as RFC 9110 (13.1.1) has it: absent, it holds; {@code *} matches any current
 * version of an existing resource; otherwise it is a list of entity tags, one of which must be the current one
 * (strong comparison: a weak tag never matches).
 */
public final class ETags {

    private ETags() {}

    public static boolean matches(@Nullable String ifMatch, String current) {
        if (ifMatch == null || ifMatch.strip().equals("*")) {
            return true;
        }
        for (String tag : ifMatch.split(",")) {
            if (tag.strip().equals(current)) {
                return true;
            }
        }
        return false;
    }
}
