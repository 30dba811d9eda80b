package dev.allot.shared.web;

import dev.allot.shared.security.Caller;
import jakarta.servlet.http.HttpSession;
import java.util.Optional;

/**
 * The tenant a signed-in user works in, kept in the session: the one chosen last (by the switcher or by
 * opening its pages) while the caller may still read it, otherwise the first of the caller's tenants.
 */
public final class CurrentTenant {

    static final String ATTRIBUTE = "allot.currentTenant";

    private CurrentTenant() {}

    public static Optional<String> of(Caller caller, HttpSession session) {
        if (session.getAttribute(ATTRIBUTE) instanceof String chosen && caller.canReadSomeOf(chosen)) {
            return Optional.of(chosen);
        }
        // a tenant where the caller has only project roles is one of its tenants too (issue 31)
        return caller.tenantsSeen().stream().findFirst();
    }

    /** Remembers the tenant; the caller must be allowed to read it. */
    public static void choose(Caller caller, HttpSession session, String tenant) {
        caller.requireReadSomeOf(tenant);
        session.setAttribute(ATTRIBUTE, tenant);
    }
}
