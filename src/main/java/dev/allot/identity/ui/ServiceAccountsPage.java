package dev.allot.identity.ui;

import dev.allot.identity.accounts.ServiceAccount;
import dev.allot.identity.accounts.ServiceAccounts;
import dev.allot.shared.AllotException;
import dev.allot.shared.InstantBounds;
import dev.allot.shared.PageQuery;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
import dev.allot.shared.web.FormErrors;
import dev.allot.shared.web.UiController;
import dev.allot.shared.web.ViewerTimes;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * A tenant's service accounts for CI. The secret exists in clear only in the answer to the creating request:
 * it is rendered there (never stored in the session, never cached) and cannot be shown again.
 */
@UiController
class ServiceAccountsPage {

    private static final int MAX_NAME = 100;

    /** {@code project}: blank for the whole tenant, or the project the account is scoped to. */
    record NewAccountForm(
            @Nullable String name,
            @Nullable String role,
            @Nullable String expiresOn,
            @Nullable String project) {

        static NewAccountForm empty() {
            return new NewAccountForm("", TenantRole.MEMBER.name(), "", "");
        }

        String cleanName() {
            return name == null ? "" : name.strip();
        }
    }

    /** What the page shows once after creating: the only time the secret is visible. */
    record Created(String name, String clientId, String clientSecret, String curl) {}

    private final ServiceAccounts serviceAccounts;

    private final Tenancy tenancy;

    ServiceAccountsPage(ServiceAccounts serviceAccounts, Tenancy tenancy) {
        this.serviceAccounts = serviceAccounts;
        this.tenancy = tenancy;
    }

    @GetMapping("/tenants/{tenant}/service-accounts")
    String list(Caller caller, Model model, @PathVariable String tenant) {
        return render(caller, model, tenant, NewAccountForm.empty(), new FormErrors());
    }

    @PostMapping("/tenants/{tenant}/service-accounts")
    String create(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @PathVariable String tenant,
            @ModelAttribute NewAccountForm form,
            HttpServletRequest request) {
        tenancy.readable(caller, tenant);
        FormErrors errors = new FormErrors();
        String name = form.cleanName();
        if (name.isEmpty()) {
            errors.add("name", "Enter a name");
        } else if (name.length() > MAX_NAME) {
            errors.add("name", "The name may have at most " + MAX_NAME + " characters");
        }
        TenantRole role = role(form.role(), errors);
        Instant expiresAt = expiry(form.expiresOn(), ViewerTimes.of(request).zone(), errors);
        if (errors.isEmpty() && role != null) {
            try {
                String project = form.project() == null || form.project().isBlank()
                        ? null
                        : form.project().strip();
                ServiceAccounts.Created created =
                        serviceAccounts.create(caller, tenant, name, role, expiresAt, project);
                response.setHeader("Cache-Control", "no-store");
                model.addAttribute("created", created(created));
                return render(caller, model, tenant, NewAccountForm.empty(), errors);
            } catch (AllotException refused) {
                errors.add(refused, "name");
            }
        }
        response.setStatus(400);
        return render(caller, model, tenant, form, errors);
    }

    @PostMapping("/tenants/{tenant}/service-accounts/{id}/revoke")
    String revoke(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @PathVariable String tenant,
            @PathVariable UUID id,
            RedirectAttributes redirect) {
        tenancy.readable(caller, tenant);
        try {
            ServiceAccount revoked = serviceAccounts.revoke(caller, tenant, id);
            redirect.addFlashAttribute("notice", "Revoked " + revoked.name() + ": it gets no new tokens.");
            return "redirect:/tenants/" + tenant + "/service-accounts";
        } catch (AllotException refused) {
            response.setStatus(400);
            return render(caller, model, tenant, NewAccountForm.empty(), new FormErrors().add(refused, "revoke@" + id));
        }
    }

    private Created created(ServiceAccounts.Created created) {
        String base =
                ServletUriComponentsBuilder.fromCurrentContextPath().build().toUriString();
        String clientId = created.account().clientId();
        String curl = """
				TOKEN=$(curl -s -u '%s:%s' -d grant_type=client_credentials %s/oauth2/token \\
				  | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')
				curl -H "Authorization: Bearer $TOKEN" %s/api/v1/me""".formatted(clientId, created.clientSecret(), base, base);
        return new Created(created.account().name(), clientId, created.clientSecret(), curl);
    }

    private static @Nullable TenantRole role(@Nullable String value, FormErrors errors) {
        for (TenantRole role : TenantRole.values()) {
            if (role.name().equals(value)) {
                return role;
            }
        }
        errors.add("role", "Choose a role");
        return null;
    }

    /** An expiry date means "usable until the end of that day" in the viewer's zone, as the form says. */
    private static @Nullable Instant expiry(@Nullable String value, ZoneId zone, FormErrors errors) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            Instant expiry = LocalDate.parse(value.strip())
                    .plusDays(1)
                    .atStartOfDay(zone)
                    .toInstant();
            if (InstantBounds.within(expiry)) {
                return expiry;
            }
        } catch (DateTimeException ex) {
            // a date that does not parse, or one so far ahead that the next day overflows
        }
        errors.add("expiresOn", "Enter a date like 2027-01-31, before the year 3000");
        return null;
    }

    private String render(Caller caller, Model model, String slug, NewAccountForm form, FormErrors errors) {
        Tenant tenant = tenancy.readable(caller, slug);
        boolean canManage = tenant.isActive()
                && (caller.isPlatformAdmin()
                        || caller.roleIn(slug)
                                .filter(role -> role.includes(TenantRole.TENANT_ADMIN))
                                .isPresent());
        model.addAttribute("section", "team");
        model.addAttribute("tenant", tenant);
        model.addAttribute("accounts", serviceAccounts.list(caller, slug, new PageQuery(0, PageQuery.MAX_SIZE)));
        model.addAttribute("roles", TenantRole.values());
        model.addAttribute(
                "projects",
                tenancy.projects(caller, slug, new PageQuery(0, PageQuery.MAX_SIZE))
                        .items());
        model.addAttribute("canManage", canManage);
        model.addAttribute("now", Instant.now());
        model.addAttribute("form", form);
        model.addAttribute("errors", errors);
        return "tenant/service-accounts";
    }
}
