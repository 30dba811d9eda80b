package dev.allot.identity.accounts;

import java.text.Normalizer;
import java.util.Locale;

/**
 * The one form of a typed username that the sign-in throttle, the back-off, the audit and the password check all
 * use: Unicode NFKC (full-width and other compatibility forms become their plain letters, a no-break space a
 * space), then leading and trailing white space removed, then lower case. Stored usernames are already in that
 * form ({@code ^[a-z][a-z0-9._-]{1,39}$}), so every name that can sign in as an account counts against that
 * account: the form filter trimmed the name before the password check while the throttle counted the raw
 * parameter, and {@code " bob"}, {@code "bob\t"} and so on each had a budget of their own. Look-alikes from other
 * scripts (a Cyrillic "о") are not folded: they name no account, so they cannot sign in either.
 */
public final class Usernames {

    private Usernames() {}

    public static String normalize(String typed) {
        return Normalizer.normalize(typed, Normalizer.Form.NFKC).strip().toLowerCase(Locale.ROOT);
    }
}
