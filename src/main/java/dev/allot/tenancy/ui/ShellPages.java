package dev.allot.tenancy.ui;

import dev.allot.shared.security.Caller;
import dev.allot.shared.web.CurrentTenant;
import dev.allot.shared.web.UiController;
import dev.allot.tenancy.Tenancy;
import jakarta.servlet.http.HttpSession;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** The tenant switcher (the start page, {@code /}, is the home module's). */
@UiController
class ShellPages {

    private final Tenancy tenancy;

    ShellPages(Tenancy tenancy) {
        this.tenancy = tenancy;
    }

    /** Switches to the tenant and comes back to the same page of it (or to the page the user was on). */
    @PostMapping("/current-tenant")
    String switchTenant(
            Caller caller,
            HttpSession session,
            @RequestParam String tenant,
            @RequestParam(required = false) @Nullable String from) {
        tenancy.readableInProjects(caller, tenant);
        CurrentTenant.choose(caller, session, tenant);
        return "redirect:" + pathAfterSwitch(from, tenant);
    }

    static String pathAfterSwitch(@Nullable String from, String tenant) {
        if (from == null || !from.startsWith("/") || from.startsWith("//") || from.contains("\\")) {
            return "/";
        }
        if (from.startsWith("/tenants/")) {
            int section = from.indexOf('/', "/tenants/".length());
            return "/tenants/" + tenant + (section < 0 ? "/projects" : from.substring(section));
        }
        return from;
    }
}
