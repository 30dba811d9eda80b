package dev.allot.shared;

/** Slugs name tenants, projects and pools in paths and bodies. */
public final class Slugs {

    /** Lower-case letters, digits and inner hyphens, 3-40 characters, starting with a letter. */
    public static final String PATTERN = "^[a-z][a-z0-9-]{1,38}[a-z0-9]$";

    public static final String MESSAGE = "must be 3-40 lower-case letters, digits or hyphens, starting with a letter";

    private Slugs() {}

    public static boolean isValid(String value) {
        return value.matches(PATTERN);
    }
}
