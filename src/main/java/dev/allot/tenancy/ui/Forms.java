package dev.allot.tenancy.ui;

import dev.allot.shared.Slugs;
import dev.allot.shared.security.TenantRole;
import dev.allot.shared.web.FormErrors;
import org.jspecify.annotations.Nullable;

/** The forms of tenancy's pages as submitted: every field may be missing; each form checks itself. */
final class Forms {

    static final int MAX_NAME = 200;

    private static final String USERNAME = "^[A-Za-z0-9][A-Za-z0-9._@-]{0,199}$";

    private Forms() {}

    /** A new tenant or project: a slug and a display name. */
    record SlugAndName(@Nullable String slug, @Nullable String displayName) {

        static SlugAndName empty() {
            return new SlugAndName("", "");
        }

        String cleanSlug() {
            return slug == null ? "" : slug.strip();
        }

        String cleanName() {
            return displayName == null ? "" : displayName.strip();
        }

        FormErrors validate() {
            FormErrors errors = new FormErrors();
            if (cleanSlug().isEmpty()) {
                errors.add("slug", "Enter a slug");
            } else if (!Slugs.isValid(cleanSlug())) {
                errors.add("slug", "The slug " + Slugs.MESSAGE);
            }
            checkDisplayName(cleanName(), "displayName", errors);
            return errors;
        }
    }

    /** A member to add, or a member's new role. */
    record MemberForm(@Nullable String username, @Nullable String role) {

        static MemberForm empty() {
            return new MemberForm("", TenantRole.MEMBER.name());
        }

        String cleanUsername() {
            return username == null ? "" : username.strip();
        }

        FormErrors validate() {
            FormErrors errors = new FormErrors();
            if (cleanUsername().isEmpty()) {
                errors.add("username", "Enter a username");
            } else if (!cleanUsername().matches(USERNAME)) {
                errors.add("username", "Use letters, digits, dots, hyphens, underscores or @ only");
            }
            parseRole(role, "role", errors);
            return errors;
        }
    }

    static void checkDisplayName(String name, String field, FormErrors errors) {
        if (name.isEmpty()) {
            errors.add(field, "Enter a display name");
        } else if (name.length() > MAX_NAME) {
            errors.add(field, "The display name may have at most " + MAX_NAME + " characters");
        }
    }

    static @Nullable TenantRole parseRole(@Nullable String value, String field, FormErrors errors) {
        for (TenantRole role : TenantRole.values()) {
            if (role.name().equals(value)) {
                return role;
            }
        }
        errors.add(field, "Choose a role");
        return null;
    }
}
