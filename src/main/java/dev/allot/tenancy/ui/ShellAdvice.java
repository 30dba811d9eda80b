package dev.allot.tenancy.ui;

import dev.allot.shared.security.Caller;
import dev.allot.shared.web.CurrentTenant;
import dev.allot.shared.web.UiController;
import dev.allot.tenancy.Tenancy;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

/** Gives every signed-in page its {@link Shell}; opening a tenant's page makes it the current tenant. */
@ControllerAdvice(annotations = UiController.class)
class ShellAdvice {

    private static final Pattern TENANT_PATH = Pattern.compile("^/tenants/([^/]+)(/.*)?$");

    private final Tenancy tenancy;

    ShellAdvice(Tenancy tenancy) {
        this.tenancy = tenancy;
    }

    @ModelAttribute("shell")
    Shell shell(Caller caller, HttpServletRequest request, HttpSession session) {
        String path = request.getRequestURI();
        Matcher tenantPage = TENANT_PATH.matcher(path);
        if (tenantPage.matches()
                && caller.canReadSomeOf(tenantPage.group(1))
                && tenancy.find(tenantPage.group(1)).isPresent()) {
            CurrentTenant.choose(caller, session, tenantPage.group(1));
        }
        Optional<String> current = CurrentTenant.of(caller, session);
        List<Shell.TenantChoice> choices = new ArrayList<>();
        caller.tenantsSeen().forEach(slug -> choice(slug).ifPresent(choices::add));
        current.filter(slug -> !caller.tenantsSeen().contains(slug))
                .flatMap(this::choice)
                .ifPresent(choices::add);
        choices.sort(Comparator.comparing(Shell.TenantChoice::displayName, String.CASE_INSENSITIVE_ORDER));
        Shell.TenantChoice currentChoice = current.flatMap(slug -> choices.stream()
                        .filter(choice -> choice.slug().equals(slug))
                        .findFirst())
                .orElse(null);
        return new Shell(
                caller.displayName(),
                caller.readsEverything(),
                List.copyOf(choices),
                currentChoice,
                path,
                tenancy.pendingInvitations(caller),
                current.filter(slug -> !caller.canRead(slug)).isPresent());
    }

    private Optional<Shell.TenantChoice> choice(String slug) {
        return tenancy.find(slug).map(tenant -> new Shell.TenantChoice(tenant.slug(), tenant.displayName()));
    }
}
